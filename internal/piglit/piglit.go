// Package piglit finds the piglit test suite that Debian's piglit package
// installs (dpkg -L piglit: /usr/lib/<triplet>/piglit), for the tests and
// commands that run its shader tests.
package piglit

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// Package is the Debian package that installs the suite.
const Package = "piglit"

// Dir returns piglit's install directory: $PIGLIT_DIR when set, else the
// first /usr/lib/*/piglit that exists, else the amd64 path.
func Dir() string {
	if d := os.Getenv("PIGLIT_DIR"); d != "" {
		return d
	}
	dirs, _ := filepath.Glob("/usr/lib/*/piglit")
	sort.Strings(dirs)
	for _, d := range dirs {
		if fi, err := os.Stat(filepath.Join(d, "tests")); err == nil && fi.IsDir() {
			return d
		}
	}
	return "/usr/lib/x86_64-linux-gnu/piglit"
}

// Path returns Dir()/sub, or an error naming the package when it does not
// exist (for internal/testenv.Need).
func Path(sub string) (string, error) {
	p := filepath.Join(Dir(), sub)
	if _, err := os.Stat(p); err != nil {
		return p, fmt.Errorf("piglit's %s is not installed (apt-get install -y %s, or set PIGLIT_DIR): %w", sub, Package, err)
	}
	return p, nil
}
