def func():
    pass

alias = func
alias()
