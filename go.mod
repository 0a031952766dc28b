module github.com/retrogl/retrogl

go 1.26.0

require (
	github.com/go-gl/mathgl v1.2.0 // indirect
	github.com/hashicorp/errwrap v1.0.0 // indirect
	github.com/hashicorp/go-multierror v1.1.1 // indirect
	github.com/stretchr/testify v1.12.1 // indirect
	golang.org/x/image v0.47.0 // indirect
)
