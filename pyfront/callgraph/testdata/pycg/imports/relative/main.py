from pkg import a

a.run()
