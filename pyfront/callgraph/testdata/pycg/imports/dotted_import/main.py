import pkg.mod

pkg.mod.func()
