package glsl

import "strings"

// ppKind classifies preprocessing tokens.
type ppKind uint8

const (
	ppIdent  ppKind = iota + 1 // identifier or keyword
	ppNumber                   // pp-number: any digit-led run, validated later
	ppPunct                    // operator or punctuation
	ppOther                    // a character outside the GLSL character set
)

// ppTok is one preprocessing token.
type ppTok struct {
	text  string
	pos   Pos
	hide  *hideSet // macros that may not expand this token again
	kind  ppKind
	space bool // preceded by white space (for #define's "NAME(" test)
	blue  bool // painted: names a macro that was disabled when it was met
	// line is the line __LINE__ gives for a token of a macro body: the
	// line where the invocation that produced it ends (0: pos.Line).
	line int
}

// lineNo is the line __LINE__ stands for at t.
func (t ppTok) lineNo() int {
	if t.line != 0 {
		return t.line
	}
	return t.pos.Line
}

// ppLine is one logical line: line continuations and comments spanning lines
// are joined, as C's translation phases 2 and 3 do.
type ppLine struct {
	toks  []ppTok
	first int // physical line where the logical line starts
	last  int // physical line of its terminating new-line
}

// punctByFirst lists the punctuators by first character, longest first.
var punctByFirst = func() map[byte][]string {
	m := map[byte][]string{}
	for _, p := range punctuators {
		m[p[0]] = append(m[p[0]], p)
	}
	return m
}()

// punctuators, longest first so the scanner can take the first prefix match.
var punctuators = []string{
	"<<=", ">>=",
	"++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "^^",
	"+=", "-=", "*=", "/=", "%=", "&=", "^=", "|=", "##",
	"+", "-", "*", "/", "%", "<", ">", "=", "!", "&", "|", "^", "~",
	"?", ":", ";", ",", ".", "(", ")", "[", "]", "{", "}", "#",
}

func isIdentStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool      { return c >= '0' && c <= '9' }
func isIdentChar(c byte) bool  { return isIdentStart(c) || isDigit(c) }

// scanner splits a source string into logical lines of pp tokens.
type scanner struct {
	src  string
	i    int
	line int
	col  int
	d    *diags
}

// scanLines tokenizes src. Comments become white space; a block comment or
// a backslash-new-line continues the logical line.
func scanLines(src string, d *diags) []ppLine {
	s := &scanner{src: src, line: 1, col: 1, d: d}
	var lines []ppLine
	cur := ppLine{first: 1}
	space := true
	for {
		if s.i >= len(s.src) {
			cur.last = s.line
			lines = append(lines, cur)
			return lines
		}
		c := s.src[s.i]
		switch {
		case c == '\\' && s.continuation():
			continue
		case c == '\n':
			cur.last = s.line
			lines = append(lines, cur)
			s.advance()
			cur = ppLine{first: s.line}
			space = true
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f':
			s.advance()
			space = true
			continue
		case c == '/' && s.peek(1) == '/':
			for s.i < len(s.src) && s.src[s.i] != '\n' {
				if s.src[s.i] == '\\' && s.continuation() {
					continue
				}
				s.advance()
			}
			space = true
			continue
		case c == '/' && s.peek(1) == '*':
			start := Pos{Line: s.line, Col: s.col}
			s.advance()
			s.advance()
			closed := false
			for s.i < len(s.src) {
				if s.src[s.i] == '*' && s.peek(1) == '/' {
					s.advance()
					s.advance()
					closed = true
					break
				}
				s.advance()
			}
			if !closed {
				d.errorf(start, "unterminated comment")
			}
			space = true
			continue
		}
		tok := ppTok{pos: Pos{Line: s.line, Col: s.col}, space: space}
		space = false
		start := s.i
		switch {
		case isIdentStart(c):
			for s.i < len(s.src) && isIdentChar(s.src[s.i]) {
				s.advance()
			}
			tok.kind = ppIdent
		case isDigit(c) || c == '.' && isDigit(s.peek(1)):
			s.advance()
			for s.i < len(s.src) {
				b := s.src[s.i]
				if (b == '+' || b == '-') && (s.src[s.i-1] == 'e' || s.src[s.i-1] == 'E') && !strings.HasPrefix(strings.ToLower(s.src[start:s.i]), "0x") {
					s.advance()
					continue
				}
				if !isIdentChar(b) && b != '.' {
					break
				}
				s.advance()
			}
			tok.kind = ppNumber
		default:
			tok.kind = ppOther
			for _, p := range punctByFirst[c] {
				if strings.HasPrefix(s.src[s.i:], p) {
					tok.kind = ppPunct
					for range p {
						s.advance()
					}
					break
				}
			}
			if tok.kind == ppOther {
				s.advance()
				for s.i < len(s.src) && s.src[s.i] >= 0x80 && s.src[s.i-1] >= 0x80 {
					s.advance()
				}
			}
		}
		tok.text = s.src[start:s.i]
		cur.toks = append(cur.toks, tok)
	}
}

func (s *scanner) peek(n int) byte {
	if s.i+n < len(s.src) {
		return s.src[s.i+n]
	}
	return 0
}

func (s *scanner) advance() {
	if s.src[s.i] == '\n' {
		s.line++
		s.col = 1
	} else {
		s.col++
	}
	s.i++
}

// continuation skips a backslash followed by a new-line and reports whether
// it did.
func (s *scanner) continuation() bool {
	switch {
	case s.peek(1) == '\n':
		s.i += 2
	case s.peek(1) == '\r' && s.peek(2) == '\n':
		s.i += 3
	default:
		return false
	}
	s.line++
	s.col = 1
	return true
}
