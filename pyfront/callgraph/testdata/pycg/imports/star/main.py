from tools import *

public()
