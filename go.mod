module github.com/retrogl/retrogl

go 1.26.0

require (
	github.com/chromedp/chromedp v0.23.0
	github.com/go-gl/mathgl v1.2.0
	github.com/hashicorp/go-multierror v1.1.1
	github.com/stretchr/testify v1.12.1
	golang.org/x/image v0.47.0
)

require (
	github.com/chromedp/cdproto v0.159.0 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/hashicorp/errwrap v1.0.0 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
)
