module example.com/twomains

go 1.21
