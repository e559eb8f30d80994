# A rank name derived from one imported from another module; the import
# of train closes an import cycle, which the analysis cuts.
from dist_env import RANK

import train

IS_MAIN = RANK == 0
