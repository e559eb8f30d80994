from .mod import func
