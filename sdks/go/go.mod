module github.com/fincore/fincore-go

go 1.19
