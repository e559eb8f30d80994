from tools import get

get()()
