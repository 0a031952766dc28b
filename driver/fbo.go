package driver

// RenderbufferReleaser is implemented by backends that keep device
// storage for GL ES 2.0 renderbuffers: the state tracker calls
// ReleaseRenderbuffer when a renderbuffer is deleted and no framebuffer
// object holds it any more (the renderbuffer counterpart of
// Context.ReleaseTexture).
type RenderbufferReleaser interface {
	ReleaseRenderbuffer(id uint32)
}
