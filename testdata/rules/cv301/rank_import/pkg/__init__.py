from .env import is_master

__all__ = ["is_master"]
