import numpy as np
from json import dumps as to_json

np.zeros(3)
to_json({})
