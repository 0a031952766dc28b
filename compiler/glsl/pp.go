package glsl

import (
	"strconv"
	"strings"
)

// Preprocessor limits: a hostile source must neither hang nor exhaust memory.
const (
	maxExpansionTokens = 1 << 20 // tokens produced by macro expansion per shader
	maxExpansionDepth  = 64      // nesting of macro invocations inside arguments
	maxIfDepth         = 256     // nesting of #if groups
)

// hideSet is the set of macros a token may not expand again (C's hide sets,
// as an immutable linked list: sets stay tiny).
type hideSet struct {
	name string
	next *hideSet
}

func (h *hideSet) has(name string) bool {
	for ; h != nil; h = h.next {
		if h.name == name {
			return true
		}
	}
	return false
}

func (h *hideSet) add(name string) *hideSet {
	if h.has(name) {
		return h
	}
	return &hideSet{name: name, next: h}
}

// macro is one #define.
type macro struct {
	name     string
	funcLike bool
	params   []string
	body     []ppTok
	pos      Pos
	builtin  bool // predefined: may be neither redefined nor undefined
	dynamic  bool // __LINE__, __FILE__, __VERSION__: value computed at use
}

// ExtBehavior is the behavior named in an #extension directive.
type ExtBehavior uint8

// Extension behaviors.
const (
	ExtDisable ExtBehavior = iota
	ExtEnable
	ExtRequire
	ExtWarn
)

var extBehaviors = map[string]ExtBehavior{"disable": ExtDisable, "enable": ExtEnable, "require": ExtRequire, "warn": ExtWarn}

// condGroup is one open #if group.
type condGroup struct {
	pos     Pos
	live    bool // the current branch is being compiled
	taken   bool // some branch of the group was taken
	parent  bool // the enclosing group is live
	sawElse bool
}

// ppResult is what the preprocessor hands the parser.
type ppResult struct {
	toks         []ppTok
	version      int
	versionPos   Pos
	extensions   map[string]ExtBehavior
	invariantAll bool // #pragma STDGL invariant(all)
}

type preprocessor struct {
	d          *diags
	opts       *Options
	macros     map[string]*macro
	res        ppResult
	conds      []condGroup
	sawContent bool // anything but #version was seen: #version is too late
	sawTokens  bool // a live non-directive token was seen: #extension is too late
	lineDelta  int
	file       int
	budget     int
	depth      int
	overflow   bool
	braces     int // brace depth of the text emitted so far
}

// preprocess runs the GLSL preprocessor over src.
func preprocess(src string, opts *Options, d *diags) *ppResult {
	p := &preprocessor{
		d:      d,
		opts:   opts,
		macros: map[string]*macro{},
		budget: maxExpansionTokens,
	}
	p.res.version = opts.defaultVersion()
	p.res.extensions = map[string]ExtBehavior{}
	p.res.toks = make([]ppTok, 0, len(src)/4)
	p.definePredefined()
	var pending []ppTok
	for _, ln := range scanLines(src, d) {
		for i := range ln.toks {
			ln.toks[i].pos.Line += p.lineDelta
			ln.toks[i].pos.File = p.file
		}
		if len(ln.toks) == 0 {
			continue
		}
		if ln.toks[0].kind == ppPunct && ln.toks[0].text == "#" {
			if p.live() {
				p.emit(p.expand(pending, false))
			}
			pending = pending[:0]
			p.directive(ln)
			continue
		}
		if p.live() {
			p.sawContent, p.sawTokens = true, true
			pending = append(pending, ln.toks...)
		}
	}
	p.emit(p.expand(pending, false))
	for _, c := range p.conds {
		d.errorf(c.pos, "unterminated #if")
	}
	return &p.res
}

// emit appends expanded text to the output, tracking brace depth.
func (p *preprocessor) emit(toks []ppTok) {
	for _, t := range toks {
		switch t.text {
		case "{":
			p.braces++
		case "}":
			p.braces--
		}
	}
	p.res.toks = append(p.res.toks, toks...)
}

// live reports whether text is currently compiled (not in a skipped group).
func (p *preprocessor) live() bool {
	return len(p.conds) == 0 || p.conds[len(p.conds)-1].live
}

func (p *preprocessor) isES() bool { return p.res.version == 100 }

// definePredefined installs the built-in macros for the current version.
func (p *preprocessor) definePredefined() {
	for name, m := range p.macros {
		if m.builtin {
			delete(p.macros, name)
		}
	}
	for _, n := range []string{"__LINE__", "__FILE__", "__VERSION__"} {
		p.macros[n] = &macro{name: n, builtin: true, dynamic: true}
	}
	one := func(name string) {
		p.macros[name] = &macro{name: name, builtin: true, body: []ppTok{{kind: ppNumber, text: "1"}}}
	}
	if p.isES() {
		one("GL_ES")
		if p.opts.Stage == StageFragment && !p.opts.DisableFragmentHighp {
			one("GL_FRAGMENT_PRECISION_HIGH")
		}
	}
	for _, e := range p.opts.Extensions {
		one(e)
	}
}

func (p *preprocessor) directive(ln ppLine) {
	toks := ln.toks[1:]
	hash := ln.toks[0].pos
	if len(toks) == 0 {
		return // the null directive
	}
	name := toks[0]
	args := toks[1:]
	if name.kind != ppIdent {
		if p.live() {
			p.d.errorf(name.pos, "invalid preprocessor directive")
		}
		return
	}
	switch name.text {
	case "if", "ifdef", "ifndef":
		p.sawContent = true
		p.openIf(name, args)
		return
	case "elif":
		p.elif(name, args)
		return
	case "else":
		p.elseDirective(name, args)
		return
	case "endif":
		if len(p.conds) == 0 {
			p.d.errorf(name.pos, "#endif without #if")
			return
		}
		// Section 3.4 lets nothing but white space and comments follow
		// #else and #endif (as in C++, where they are errors); the check
		// runs where the directive is processed, in a live enclosing group.
		if g := p.conds[len(p.conds)-1]; len(args) > 0 && g.parent {
			p.d.errorf(args[0].pos, "unexpected '%s' after #endif", args[0].text)
		}
		p.conds = p.conds[:len(p.conds)-1]
		return
	}
	if !p.live() {
		return
	}
	if name.text != "version" {
		p.sawContent = true
	}
	switch name.text {
	case "define":
		p.define(name, args)
	case "undef":
		p.undef(name, args)
	case "error":
		p.d.errorf(hash, "%s", strings.TrimSpace("#error "+joinToks(args)))
	case "pragma":
		p.pragma(args)
	case "extension":
		p.extension(name, args)
	case "version":
		p.version(name, args)
	case "line":
		p.line(name, ln, args)
	default:
		p.d.errorf(name.pos, "invalid preprocessor directive #%s", name.text)
	}
}

// joinToks renders tokens back to text, one space where the source had some.
func joinToks(toks []ppTok) string {
	var b strings.Builder
	for i, t := range toks {
		if i > 0 && t.space {
			b.WriteByte(' ')
		}
		b.WriteString(t.text)
	}
	return b.String()
}

func (p *preprocessor) openIf(name ppTok, args []ppTok) {
	if len(p.conds) >= maxIfDepth {
		p.d.errorf(name.pos, "#if nesting too deep")
		p.overflow = true
	}
	g := condGroup{pos: name.pos, parent: p.live()}
	if g.parent {
		switch name.text {
		case "if":
			g.live = p.evalIf(name, args)
		default:
			if len(args) == 0 || args[0].kind != ppIdent {
				p.d.errorf(name.pos, "#%s requires a macro name", name.text)
				break
			}
			if len(args) > 1 {
				p.d.errorf(args[1].pos, "unexpected '%s' after #%s %s", args[1].text, name.text, args[0].text)
			}
			_, def := p.macros[args[0].text]
			g.live = def == (name.text == "ifdef")
		}
		g.taken = g.live
	}
	p.conds = append(p.conds, g)
}

func (p *preprocessor) elif(name ppTok, args []ppTok) {
	if len(p.conds) == 0 {
		p.d.errorf(name.pos, "#elif without #if")
		return
	}
	g := &p.conds[len(p.conds)-1]
	if g.sawElse {
		p.d.errorf(name.pos, "#elif after #else")
	}
	if !g.parent || g.taken {
		g.live = false
		return
	}
	g.live = p.evalIf(name, args)
	g.taken = g.live
}

func (p *preprocessor) elseDirective(name ppTok, args []ppTok) {
	if len(p.conds) == 0 {
		p.d.errorf(name.pos, "#else without #if")
		return
	}
	g := &p.conds[len(p.conds)-1]
	if g.sawElse {
		p.d.errorf(name.pos, "multiple #else in one #if group")
	}
	g.sawElse = true
	g.live = g.parent && !g.taken
	g.taken = true
	if len(args) > 0 && g.parent {
		p.d.errorf(args[0].pos, "unexpected '%s' after #else", args[0].text)
	}
}

func (p *preprocessor) define(name ppTok, args []ppTok) {
	if len(args) == 0 || args[0].kind != ppIdent {
		p.d.errorf(name.pos, "#define requires a macro name")
		return
	}
	id := args[0]
	if !p.checkMacroName(id, "define") {
		return
	}
	m := &macro{name: id.text, pos: id.pos}
	rest := args[1:]
	if len(rest) > 0 && rest[0].text == "(" && !rest[0].space {
		m.funcLike = true
		i := 1
		for {
			if i >= len(rest) {
				p.d.errorf(id.pos, "missing ')' in parameter list of macro %s", id.text)
				return
			}
			t := rest[i]
			if t.text == ")" && len(m.params) == 0 {
				i++
				break
			}
			if t.kind != ppIdent {
				p.d.errorf(t.pos, "invalid macro parameter '%s'", t.text)
				return
			}
			for _, q := range m.params {
				if q == t.text {
					p.d.errorf(t.pos, "duplicate macro parameter '%s'", t.text)
					return
				}
			}
			m.params = append(m.params, t.text)
			if i+1 >= len(rest) {
				p.d.errorf(id.pos, "missing ')' in parameter list of macro %s", id.text)
				return
			}
			i += 2
			if rest[i-1].text == ")" {
				break
			}
			if rest[i-1].text != "," {
				p.d.errorf(rest[i-1].pos, "expected ',' or ')' in parameter list of macro %s", id.text)
				return
			}
		}
		rest = rest[i:]
	}
	for _, b := range rest {
		if b.kind == ppPunct && (b.text == "#" || b.text == "##") {
			// GLSL ES 1.00 and GLSL 1.10/1.20 have neither stringification
			// nor token pasting (section 3.4).
			p.d.errorf(b.pos, "the '%s' operator is not supported in macros", b.text)
			return
		}
	}
	m.body = append([]ppTok(nil), rest...)
	if old, ok := p.macros[m.name]; ok && !sameMacro(old, m) {
		p.d.errorf(id.pos, "redefinition of macro %s (previously defined at %s)", id.text, old.pos)
		return
	}
	p.macros[m.name] = m
}

// sameMacro implements C's rule for a benign redefinition: same parameters,
// same body tokens, white space at the same places.
func sameMacro(a, b *macro) bool {
	if a.funcLike != b.funcLike || len(a.params) != len(b.params) || len(a.body) != len(b.body) {
		return false
	}
	for i := range a.params {
		if a.params[i] != b.params[i] {
			return false
		}
	}
	for i := range a.body {
		if a.body[i].text != b.body[i].text || i > 0 && a.body[i].space != b.body[i].space {
			return false
		}
	}
	return true
}

// checkMacroName rejects names the specification reserves.
func (p *preprocessor) checkMacroName(id ppTok, verb string) bool {
	if id.text == "defined" {
		p.d.errorf(id.pos, "cannot %s 'defined'", verb)
		return false
	}
	if m, ok := p.macros[id.text]; ok && m.builtin {
		p.d.errorf(id.pos, "cannot %s built-in macro %s", verb, id.text)
		return false
	}
	if strings.HasPrefix(id.text, "GL_") {
		p.d.errorf(id.pos, "macro names beginning with \"GL_\" are reserved")
		return false
	}
	if strings.Contains(id.text, "__") {
		p.d.warnf(id.pos, "macro names containing \"__\" are reserved")
	}
	return true
}

func (p *preprocessor) undef(name ppTok, args []ppTok) {
	if len(args) == 0 || args[0].kind != ppIdent {
		p.d.errorf(name.pos, "#undef requires a macro name")
		return
	}
	if len(args) > 1 {
		p.d.errorf(args[1].pos, "unexpected '%s' after #undef %s", args[1].text, args[0].text)
		return
	}
	if !p.checkMacroName(args[0], "undefine") {
		return
	}
	delete(p.macros, args[0].text)
}

func (p *preprocessor) pragma(args []ppTok) {
	// Section 3.4: the tokens after #pragma are not macro-expanded, and a
	// pragma the implementation does not recognise is ignored. Tokens
	// must still be tokens of the language, and the two pragmas the
	// section defines must have its form: "optimize(on)", "debug(off)"
	// (the Khronos ES 2.0 conformance tests reject "debug(1.23)" and
	// characters outside the character set, as glslang does).
	for _, a := range args {
		if a.kind == ppOther {
			p.d.errorf(a.pos, "invalid character '%s' in #pragma", a.text)
			return
		}
	}
	if len(args) > 0 && (args[0].text == "optimize" || args[0].text == "debug") {
		if len(args) != 4 || args[1].text != "(" || args[2].text != "on" && args[2].text != "off" || args[3].text != ")" {
			p.d.errorf(args[0].pos, "#pragma %s expects (on) or (off)", args[0].text)
			return
		}
		if p.braces > 0 {
			// Section 3.4: these "can only be used outside function
			// definitions".
			p.d.errorf(args[0].pos, "#pragma %s is allowed only outside function definitions", args[0].text)
		}
	}
	// #pragma STDGL invariant(all) is the only pragma with an effect here.
	if len(args) >= 5 && args[0].text == "STDGL" && args[1].text == "invariant" &&
		args[2].text == "(" && args[3].text == "all" && args[4].text == ")" {
		p.res.invariantAll = true
	}
}

func (p *preprocessor) extension(name ppTok, args []ppTok) {
	// Section 3.4: without a scope of its own stated by the extension,
	// "the extension directives must occur before any non-preprocessor
	// tokens" (Mesa rejects a later one in every GLSL version).
	if p.sawTokens {
		p.d.errorf(name.pos, "#extension must occur before any non-preprocessor tokens")
		return
	}
	if len(args) != 3 || args[0].kind != ppIdent || args[1].text != ":" || args[2].kind != ppIdent {
		p.d.errorf(name.pos, "#extension expects 'name : behavior'")
		return
	}
	ext, bt := args[0], args[2]
	b, ok := extBehaviors[bt.text]
	if !ok {
		p.d.errorf(bt.pos, "unknown extension behavior '%s'", bt.text)
		return
	}
	if ext.text == "all" {
		if b == ExtEnable || b == ExtRequire {
			p.d.errorf(bt.pos, "behavior '%s' is not allowed with 'all'", bt.text)
			return
		}
		for k := range p.res.extensions {
			p.res.extensions[k] = b
		}
		return
	}
	if !p.opts.hasExtension(ext.text) {
		switch b {
		case ExtRequire:
			p.d.errorf(ext.pos, "extension '%s' is unsupported", ext.text)
		case ExtEnable, ExtWarn:
			p.d.warnf(ext.pos, "extension '%s' is unsupported", ext.text)
		}
		return
	}
	p.res.extensions[ext.text] = b
}

func (p *preprocessor) version(name ppTok, args []ppTok) {
	if p.sawContent || p.res.versionPos.IsValid() {
		p.d.errorf(name.pos, "#version must occur before anything else in the shader")
		return
	}
	p.res.versionPos = name.pos
	if len(args) == 0 || args[0].kind != ppNumber {
		p.d.errorf(name.pos, "#version requires a version number")
		return
	}
	v, err := strconv.Atoi(args[0].text)
	if err != nil {
		p.d.errorf(args[0].pos, "invalid version number '%s'", args[0].text)
		return
	}
	if len(args) > 1 {
		p.d.errorf(args[1].pos, "invalid profile '%s' for #version %d", joinToks(args[1:]), v)
	}
	switch v {
	case 100, 110, 120:
	default:
		p.d.errorf(args[0].pos, "GLSL %s is not supported; supported versions are 1.00 ES, 1.10 and 1.20", versionName(v))
		return
	}
	p.res.version = v
	p.definePredefined()
}

// versionName renders a #version number as GLSL names it ("1.30", "3.00 ES").
func versionName(v int) string {
	s := strconv.Itoa(v/100) + "." + strconv.Itoa(v%100/10) + strconv.Itoa(v%10)
	if v == 100 || v == 300 || v == 310 || v == 320 {
		s += " ES"
	}
	return s
}

func (p *preprocessor) line(name ppTok, ln ppLine, args []ppTok) {
	// Section 3.4: after macro substitution, "#line line" or "#line line
	// source-string-number", each a constant integer expression
	// ("#line (233 + 10) (+10)"); each expression is read as far as it
	// goes, so "#line 10 -5" is the line 5.
	toks := p.expand(args, false)
	if len(toks) == 0 {
		p.d.errorf(name.pos, "#line expects a line number and an optional source string number")
		return
	}
	e := &ppExpr{p: p, toks: toks, at: name.pos}
	var nums []int64
	for e.i < len(e.toks) && !e.failed {
		if len(nums) == 2 {
			p.d.errorf(e.toks[e.i].pos, "unexpected '%s' after the source string number of #line", e.toks[e.i].text)
			return
		}
		at := e.toks[e.i].pos
		v := e.binary(0, true)
		if !e.failed && (v < 0 || v > 1<<31-1) {
			p.d.errorf(at, "#line number %d is out of range", v)
			return
		}
		nums = append(nums, v)
	}
	if e.failed {
		return
	}
	// After "#line N" (and its new-line) the next line is N in GLSL ES,
	// N+1 in desktop GLSL before 3.30. [OUT] Mesa's GLSL lexer does so
	// for every GLSL ES version ("From GLSL 3.30 and GLSL ES on ... It
	// was line number + 1 in older specifications"), and the Khronos ES
	// 2.0 conformance tests expect __LINE__ on the line after "#line 1"
	// to be 1.
	next := int(nums[0])
	if !p.isES() {
		next++
	}
	p.lineDelta = next - (ln.last + 1)
	if len(nums) == 2 {
		p.file = int(nums[1])
	}
}

// parsePPInt parses a decimal, octal or hexadecimal integer token.
func parsePPInt(s string) (int64, bool) {
	v, err := strconv.ParseInt(s, 0, 64)
	if err != nil {
		u, err := strconv.ParseUint(s, 0, 64)
		if err != nil || strings.ContainsAny(s, "_") {
			return 0, false
		}
		return int64(u), true
	}
	if strings.Contains(s, "_") || len(s) > 1 && s[0] == '0' && (s[1] == 'o' || s[1] == 'O' || s[1] == 'b' || s[1] == 'B') {
		return 0, false
	}
	return v, true
}

// expand macro-expands toks (Prosser's algorithm: each token carries the
// set of macros that produced it, which may not expand it again). In #if
// lines (inIf) the operator "defined" is evaluated before expansion.
func (p *preprocessor) expand(toks []ppTok, inIf bool) []ppTok {
	if len(toks) == 0 || p.overflow {
		return nil
	}
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxExpansionDepth {
		p.d.errorf(toks[0].pos, "macro expansion nested too deeply")
		p.overflow = true
		return nil
	}
	in := make([]ppTok, len(toks))
	for i, t := range toks {
		in[len(toks)-1-i] = t
	}
	pop := func() ppTok {
		t := in[len(in)-1]
		in = in[:len(in)-1]
		return t
	}
	out := make([]ppTok, 0, len(toks))
	for len(in) > 0 {
		t := pop()
		if t.kind != ppIdent || t.blue {
			out = append(out, t)
			continue
		}
		if inIf && t.text == "defined" {
			out = append(out, p.defined(t, &in))
			continue
		}
		m := p.macros[t.text]
		if m == nil {
			out = append(out, t)
			continue
		}
		if t.hide.has(m.name) {
			t.blue = true
			out = append(out, t)
			continue
		}
		if m.dynamic {
			v := 0
			switch m.name {
			case "__LINE__":
				v = t.lineNo()
			case "__FILE__":
				v = t.pos.File
			case "__VERSION__":
				v = p.res.version
			}
			out = append(out, ppTok{kind: ppNumber, text: strconv.Itoa(v), pos: t.pos, space: t.space})
			continue
		}
		hide := t.hide.add(m.name)
		var body []ppTok
		if !m.funcLike {
			body = p.instantiate(m, nil, t, t.lineNo(), hide)
		} else {
			if len(in) == 0 || in[len(in)-1].text != "(" {
				out = append(out, t)
				continue
			}
			args, end, ok := p.collectArgs(t, m, &in)
			if !ok {
				return out
			}
			for i := range args {
				args[i] = p.expand(args[i], inIf)
			}
			// An invocation may span lines. Its arguments were expanded
			// where they stand; its replacement list is rescanned where
			// the invocation ends, so __LINE__ in the body gives the line
			// of the closing parenthesis (the Khronos ES 2.0 conformance
			// tests expect this; C leaves it unspecified).
			body = p.instantiate(m, args, t, end.lineNo(), hide)
		}
		p.budget -= len(body)
		if p.budget < 0 {
			p.d.errorf(t.pos, "macro expansion too large")
			p.overflow = true
			return out
		}
		for i := len(body) - 1; i >= 0; i-- {
			in = append(in, body[i])
		}
	}
	return out
}

// defined evaluates "defined NAME" or "defined ( NAME )" to 1 or 0.
func (p *preprocessor) defined(t ppTok, in *[]ppTok) ppTok {
	res := ppTok{kind: ppNumber, text: "0", pos: t.pos, space: t.space}
	s := *in
	next := func() (ppTok, bool) {
		if len(s) == 0 {
			return ppTok{}, false
		}
		x := s[len(s)-1]
		s = s[:len(s)-1]
		return x, true
	}
	x, ok := next()
	paren := ok && x.text == "("
	if paren {
		x, ok = next()
	}
	if !ok || x.kind != ppIdent {
		p.d.errorf(t.pos, "'defined' requires a macro name")
		*in = s
		return res
	}
	if paren {
		if c, ok := next(); !ok || c.text != ")" {
			p.d.errorf(t.pos, "missing ')' after 'defined'")
		}
	}
	*in = s
	if _, def := p.macros[x.text]; def {
		res.text = "1"
	}
	return res
}

// collectArgs reads the parenthesised argument list of a function-like macro
// invocation from the input stack; end is the closing parenthesis.
func (p *preprocessor) collectArgs(t ppTok, m *macro, in *[]ppTok) (args [][]ppTok, end ppTok, ok bool) {
	s := *in
	s = s[:len(s)-1] // the '('
	var cur []ppTok
	depth := 0
	for {
		if len(s) == 0 {
			p.d.errorf(t.pos, "unterminated argument list invoking macro %s", m.name)
			*in = s
			return nil, end, false
		}
		x := s[len(s)-1]
		s = s[:len(s)-1]
		if x.kind == ppPunct {
			switch x.text {
			case "(":
				depth++
			case ")":
				if depth == 0 {
					args = append(args, cur)
					*in = s
					if len(m.params) == 0 && len(args) == 1 && len(args[0]) == 0 {
						return nil, x, true
					}
					if len(args) != len(m.params) {
						p.d.errorf(t.pos, "macro %s expects %d arguments, given %d", m.name, len(m.params), len(args))
						return nil, x, false
					}
					return args, x, true
				}
				depth--
			case ",":
				if depth == 0 {
					args = append(args, cur)
					cur = nil
					continue
				}
			}
		}
		cur = append(cur, x)
	}
}

// instantiate copies a macro body for one use, substituting the (already
// expanded) arguments. Body tokens take the position of the invocation so
// diagnostics point at the source the user wrote, and line, the line
// __LINE__ gives there.
func (p *preprocessor) instantiate(m *macro, args [][]ppTok, at ppTok, line int, hide *hideSet) []ppTok {
	var out []ppTok
	for i, b := range m.body {
		if b.kind == ppIdent && args != nil {
			if k := paramIndex(m.params, b.text); k >= 0 {
				for _, a := range args[k] {
					a.hide = mergeHide(a.hide, hide)
					out = append(out, a)
				}
				continue
			}
		}
		b.pos = at.pos
		b.line = line
		b.hide = hide
		if i == 0 {
			b.space = at.space
		}
		out = append(out, b)
	}
	return out
}

func paramIndex(params []string, name string) int {
	for i, q := range params {
		if q == name {
			return i
		}
	}
	return -1
}

func mergeHide(a, b *hideSet) *hideSet {
	for ; b != nil; b = b.next {
		a = a.add(b.name)
	}
	return a
}

// evalIf evaluates the controlling expression of #if or #elif.
func (p *preprocessor) evalIf(name ppTok, args []ppTok) bool {
	toks := p.expand(args, true)
	if len(toks) == 0 {
		p.d.errorf(name.pos, "#%s with no expression", name.text)
		return false
	}
	e := &ppExpr{p: p, toks: toks, at: name.pos}
	v := e.binary(0, true)
	if e.failed {
		return false
	}
	if e.i < len(e.toks) {
		p.d.errorf(e.toks[e.i].pos, "syntax error in #%s: unexpected '%s'", name.text, e.toks[e.i].text)
		return false
	}
	return v != 0
}

// ppExpr evaluates #if expressions with C's integer operators and
// precedence, short-circuiting && and || (so 0 && 1/0 is fine).
type ppExpr struct {
	p      *preprocessor
	toks   []ppTok
	i      int
	at     Pos
	failed bool
	depth  int
}

var ppBinPrec = map[string]int{
	"||": 1, "&&": 2, "|": 3, "^": 4, "&": 5,
	"==": 6, "!=": 6, "<": 7, ">": 7, "<=": 7, ">=": 7,
	"<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10,
}

func (e *ppExpr) fail(pos Pos, format string, args ...any) {
	if !e.failed {
		e.p.d.errorf(pos, format, args...)
	}
	e.failed = true
}

func (e *ppExpr) binary(minPrec int, eval bool) int64 {
	x := e.unary(eval)
	for !e.failed && e.i < len(e.toks) {
		op := e.toks[e.i]
		prec, ok := ppBinPrec[op.text]
		if op.kind != ppPunct || !ok || prec <= minPrec {
			return x
		}
		e.i++
		switch op.text {
		case "&&":
			y := e.binary(prec, eval && x != 0)
			x = b2i(x != 0 && y != 0)
			continue
		case "||":
			y := e.binary(prec, eval && x == 0)
			x = b2i(x != 0 || y != 0)
			continue
		}
		y := e.binary(prec, eval)
		switch op.text {
		case "|":
			x |= y
		case "^":
			x ^= y
		case "&":
			x &= y
		case "==":
			x = b2i(x == y)
		case "!=":
			x = b2i(x != y)
		case "<":
			x = b2i(x < y)
		case ">":
			x = b2i(x > y)
		case "<=":
			x = b2i(x <= y)
		case ">=":
			x = b2i(x >= y)
		case "<<":
			x <<= uint64(y) & 63
		case ">>":
			x >>= uint64(y) & 63
		case "+":
			x += y
		case "-":
			x -= y
		case "*":
			x *= y
		case "/", "%":
			if y == 0 {
				if eval {
					e.fail(op.pos, "division by zero in preprocessor expression")
				}
				x = 0
				continue
			}
			if x == -1<<63 && y == -1 {
				x = 0 // avoid the one overflowing case; its value is undefined in C
				continue
			}
			if op.text == "/" {
				x /= y
			} else {
				x %= y
			}
		}
	}
	return x
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func (e *ppExpr) unary(eval bool) int64 {
	e.depth++
	defer func() { e.depth-- }()
	if e.depth > maxNesting {
		e.fail(e.at, "preprocessor expression nested too deeply")
		return 0
	}
	if e.i >= len(e.toks) {
		e.fail(e.at, "syntax error in preprocessor expression: unexpected end")
		return 0
	}
	t := e.toks[e.i]
	e.i++
	switch {
	case t.kind == ppNumber:
		v, ok := parsePPInt(t.text)
		if !ok {
			e.fail(t.pos, "invalid integer '%s' in preprocessor expression", t.text)
		}
		return v
	case t.kind == ppIdent:
		// Section 3.4: an identifier left after macro expansion (not
		// consumed by 'defined') is an error, but only when its operand is
		// evaluated: C's short-circuit makes "1 || X" and "0 && X" valid,
		// as the Khronos ES 2.0 conformance tests and Mesa expect.
		if eval {
			e.fail(t.pos, "undefined macro '%s' in preprocessor expression", t.text)
		}
		return 0
	case t.text == "(":
		v := e.binary(0, eval)
		if e.i >= len(e.toks) || e.toks[e.i].text != ")" {
			e.fail(t.pos, "missing ')' in preprocessor expression")
			return 0
		}
		e.i++
		return v
	case t.text == "-":
		return -e.unary(eval)
	case t.text == "+":
		return e.unary(eval)
	case t.text == "~":
		return ^e.unary(eval)
	case t.text == "!":
		return b2i(e.unary(eval) == 0)
	}
	e.fail(t.pos, "syntax error in preprocessor expression: unexpected '%s'", t.text)
	return 0
}
