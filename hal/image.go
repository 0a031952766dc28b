package hal

import (
	"fmt"
	"io"
	"strings"
)

// Image is a device memory image rebuilt on the CPU, for tools that read a
// capture without a device (the disassembler). Untouched bytes read as
// zero. Memory is kept in pages allocated when first written, so an image
// of a large memory map costs what the capture wrote.
type Image struct {
	regions []Region
	pages   map[uint32][]byte // page number (address / imagePage) -> bytes
}

// imagePage is the size of an Image page.
const imagePage = 64 << 10

// NewImage returns an empty image with the regions of info.
func NewImage(info Info) *Image {
	return &Image{regions: info.Regions, pages: map[uint32][]byte{}}
}

// check returns an error unless [addr, addr+n) lies inside one region.
func (m *Image) check(addr, n uint32) error {
	for _, r := range m.regions {
		if r.Contains(addr, n) {
			return nil
		}
	}
	return fmt.Errorf("%#08x+%d: %w", addr, n, ErrBadAddress)
}

// span calls fn for each page piece of [addr, addr+n): the page (nil when
// never written and alloc is false), the offset in it and the piece's
// offset in the range.
func (m *Image) span(addr, n uint32, alloc bool, fn func(page []byte, off, at, k uint32)) {
	for at := uint32(0); at < n; {
		a := addr + at
		pn, off := a/imagePage, a%imagePage
		k := min(n-at, imagePage-off)
		page := m.pages[pn]
		if page == nil && alloc {
			page = make([]byte, imagePage)
			m.pages[pn] = page
		}
		fn(page, off, at, k)
		at += k
	}
}

// Write copies p into the image.
func (m *Image) Write(addr uint32, p []byte) error {
	if err := m.check(addr, uint32(len(p))); err != nil {
		return err
	}
	m.span(addr, uint32(len(p)), true, func(page []byte, off, at, k uint32) { copy(page[off:off+k], p[at:at+k]) })
	return nil
}

// Read copies image bytes into p.
func (m *Image) Read(addr uint32, p []byte) error {
	if err := m.check(addr, uint32(len(p))); err != nil {
		return err
	}
	m.span(addr, uint32(len(p)), false, func(page []byte, off, at, k uint32) {
		if page == nil {
			clear(p[at : at+k])
		} else {
			copy(p[at:at+k], page[off:off+k])
		}
	})
	return nil
}

// Bytes returns a copy of the image bytes from addr to the end of its
// region.
func (m *Image) Bytes(addr uint32) ([]byte, error) {
	for _, r := range m.regions {
		if r.Contains(addr, 0) && addr < r.Base+r.Size {
			p := make([]byte, r.Base+r.Size-addr)
			return p, m.Read(addr, p)
		}
	}
	return nil, fmt.Errorf("%#08x: %w", addr, ErrBadAddress)
}

// Submission is a command buffer found in a capture, with the memory image
// as it stood when the buffer was submitted.
type Submission struct {
	Buffer Buffer
	Fence  Fence
	// Bytes holds the buffer's bytes at submission time.
	Bytes []byte
}

// Submissions reads a whole capture and returns its header and every
// submitted buffer's bytes, as the disassembler needs them. A buffer
// extended while it ran (Appender) is taken at its final size, with its
// bytes as they stood at the last extension.
func Submissions(r io.Reader) (CaptureHeader, []Submission, error) {
	cr, err := NewCaptureReader(r)
	if err != nil {
		return CaptureHeader{}, nil, err
	}
	img := NewImage(cr.Header().Info)
	var subs []Submission
	byFence := map[Fence]int{}
	read := func(s *Submission) error {
		s.Bytes = make([]byte, s.Buffer.Size)
		return img.Read(s.Buffer.Addr, s.Bytes)
	}
	for {
		rec, err := cr.Next()
		if err == io.EOF {
			return cr.Header(), subs, nil
		}
		if err != nil {
			return cr.Header(), subs, err
		}
		switch rec.Kind {
		case RecWrite:
			if err := img.Write(rec.Addr, rec.Data); err != nil {
				return cr.Header(), subs, fmt.Errorf("capture write: %w", err)
			}
		case RecSubmit:
			s := Submission{Buffer: Buffer{rec.Addr, rec.Size}, Fence: rec.Fence}
			if err := read(&s); err != nil {
				return cr.Header(), subs, fmt.Errorf("capture submit: %w", err)
			}
			byFence[rec.Fence] = len(subs)
			subs = append(subs, s)
		case RecExtend:
			i, ok := byFence[rec.Fence]
			if !ok {
				return cr.Header(), subs, fmt.Errorf("capture extend: fence %d was not submitted", rec.Fence)
			}
			subs[i].Buffer.Size = rec.Size
			if err := read(&subs[i]); err != nil {
				return cr.Header(), subs, fmt.Errorf("capture extend: %w", err)
			}
		}
	}
}

// Listing decodes every submission of a capture with its chip's registered
// decoder: a "# submission N: ADDRESS, SIZE bytes" line, then one line per
// command word. It is what cmd/rgldis prints and what golden stream files
// hold.
func Listing(r io.Reader) (string, error) {
	hdr, subs, err := Submissions(r)
	if err != nil {
		return "", err
	}
	dec, err := LookupDecoder(hdr.Info.Chip)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, s := range subs {
		fmt.Fprintf(&b, "# submission %d: %#08x, %d bytes\n", s.Fence, s.Buffer.Addr, s.Buffer.Size)
		for _, l := range dec(s.Bytes, s.Buffer.Addr) {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return b.String(), nil
}
