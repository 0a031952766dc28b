// Command glinfo prints every registered backend's capabilities, like
// eglinfo: GL_VENDOR, GL_RENDERER, GL_VERSION, GL_EXTENSIONS, the limits,
// the surface and texture formats, the features that work, what the backend
// emulates and what is missing and why, and its memory: the device's
// regions and the host-memory budget of a context (gles.Config.MemoryBudget
// defaults to their sum).
//
//	go run ./cmd/glinfo                 # every backend, as text
//	go run ./cmd/glinfo -backend pspge  # one backend
//	go run ./cmd/glinfo -json           # a JSON array of objects
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"reflect"
	"sort"
	"strings"

	"github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/gles"
)

// info is one backend's capabilities and memory, as -json prints them.
type info struct {
	*driver.Caps
	Memory memory `json:"memory"`
}

// memory is a backend's device memory and the default budget of a
// context's buffer and texture data.
type memory struct {
	Regions []region `json:"regions"`
	// Budget is gles.DefaultMemoryBudget: the bytes of buffer and texture
	// data (and names and shader sources) a context may hold.
	Budget int64 `json:"context_budget"`
}

type region struct {
	Name string `json:"name"`
	Base uint32 `json:"base"`
	Size uint32 `json:"size"`
}

func main() {
	backend := flag.String("backend", "", "print only this backend")
	asJSON := flag.Bool("json", false, "print a JSON array")
	flag.Parse()
	if err := run(os.Stdout, *backend, *asJSON); err != nil {
		fmt.Fprintln(os.Stderr, "glinfo:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, backend string, asJSON bool) error {
	names := backends.Names()
	if backend != "" {
		names = []string{backend}
	}
	var all []info
	for _, n := range names {
		drv, err := driver.Open(n, driver.OpenOptions{})
		if err != nil {
			return err
		}
		c := *drv.Caps()
		// Empty lists print as [] rather than null.
		if c.Missing == nil {
			c.Missing = []driver.Missing{}
		}
		if c.Emulated == nil {
			c.Emulated = []driver.Emulation{}
		}
		if c.Where == nil {
			c.Where = []driver.Placement{}
		}
		if c.Extensions == nil {
			c.Extensions = []string{}
		}
		in := info{Caps: &c, Memory: memory{Budget: gles.DefaultMemoryBudget(drv)}}
		for _, r := range drv.Device().Info().Regions {
			in.Memory.Regions = append(in.Memory.Regions, region{Name: r.Name, Base: r.Base, Size: r.Size})
		}
		all = append(all, in)
		if err := drv.Close(); err != nil {
			return fmt.Errorf("%s: close: %w", n, err)
		}
	}
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(all)
	}
	for i, in := range all {
		if i > 0 {
			fmt.Fprintln(w)
		}
		printText(w, in)
	}
	return nil
}

func printText(w io.Writer, in info) {
	c := in.Caps
	fmt.Fprintf(w, "backend: %s\n", c.Name)
	fmt.Fprintf(w, "  GL_VENDOR:     %s\n", c.Vendor)
	fmt.Fprintf(w, "  GL_RENDERER:   %s\n", c.Renderer)
	fmt.Fprintf(w, "  GL_VERSION:    %s\n", c.Version)
	if c.ES2 {
		fmt.Fprintf(w, "  GL_VERSION in GL ES 2.0 contexts: %s\n", c.VersionES2)
	}
	if c.GLSLVersion != "" {
		fmt.Fprintf(w, "  GL_SHADING_LANGUAGE_VERSION: %s\n", c.GLSLVersion)
	}
	fmt.Fprintf(w, "  GL_EXTENSIONS:\n")
	for _, e := range c.Extensions {
		fmt.Fprintf(w, "    %s\n", e)
	}
	fmt.Fprintf(w, "  limits:\n")
	v := reflect.ValueOf(c.Limits)
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := v.Field(i)
		if f.IsZero() {
			continue
		}
		name := strings.Split(t.Field(i).Tag.Get("json"), ",")[0]
		if m, ok := f.Interface().(map[string]int); ok {
			for _, k := range sortedKeys(m) {
				fmt.Fprintf(w, "    %-34s %d\n", k, m[k])
			}
			continue
		}
		fmt.Fprintf(w, "    %-34s %v\n", name, f.Interface())
	}
	fmt.Fprintf(w, "  surfaces: colour %v, depth bits %v, stencil bits %v (default %dx%d %v, depth %d, stencil %d)\n",
		c.ColorFormats, c.DepthBits, c.StencilBits, c.Default.Width, c.Default.Height, c.Default.Format,
		c.Default.DepthBits, c.Default.StencilBits)
	if len(c.TextureFormats) > 0 {
		fmt.Fprintf(w, "  texture formats: %s\n", strings.Join(c.TextureFormats, " "))
	}
	var have []string
	for _, f := range c.Features.List() {
		have = append(have, f.String())
	}
	fmt.Fprintf(w, "  features: %s\n", strings.Join(have, " "))
	fmt.Fprintf(w, "  where work runs:\n")
	for _, p := range c.Where {
		fmt.Fprintf(w, "    %s: %s\n", p.Stage, p.Runs)
	}
	fmt.Fprintf(w, "  emulated:\n")
	for _, e := range c.Emulated {
		fmt.Fprintf(w, "    %s: %s\n", e.Feature, e.How)
		if e.Cost != "" {
			fmt.Fprintf(w, "      cost: %s\n", e.Cost)
		}
	}
	fmt.Fprintf(w, "  missing:\n")
	for _, m := range c.Missing {
		fmt.Fprintf(w, "    %s: %s\n", m.Feature, m.Why)
	}
	var regs []string
	for _, r := range in.Memory.Regions {
		regs = append(regs, fmt.Sprintf("%s %s at %#08x", r.Name, mib(int64(r.Size)), r.Base))
	}
	fmt.Fprintf(w, "  memory: %s\n", strings.Join(regs, ", "))
	fmt.Fprintf(w, "  context memory budget: %s of buffer and texture data (gles.Config.MemoryBudget)\n", mib(in.Memory.Budget))
}

// mib writes a size in MiB, or in KiB below one.
func mib(n int64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d KiB", n>>10)
}

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
