from tools import func

func()
