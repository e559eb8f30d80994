module tagged

go 1.21
