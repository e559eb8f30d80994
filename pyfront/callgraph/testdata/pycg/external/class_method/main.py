from ext import Client

c = Client()
c.send()
