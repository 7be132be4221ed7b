package web

import (
	"bytes"
	"html/template"
	"strings"
	"testing"
)

func TestVisibleHTML(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain <b>&", "plain &lt;b&gt;&amp;"},
		{"rtl\u202Eexe.png", `rtl<span class="invis" title="invisible character U+202E RIGHT-TO-LEFT OVERRIDE">⟨U+202E⟩</span>exe.png`},
		{"\u200b", `<span class="invis" title="invisible character U+200B ZERO WIDTH SPACE">⟨U+200B⟩</span>`},
		{"a\x1fb", `a<span class="invis" title="invisible character U+001F">⟨U+001F⟩</span>b`},
		{"<\u2066>", `&lt;<span class="invis" title="invisible character U+2066 LEFT-TO-RIGHT ISOLATE">⟨U+2066⟩</span>&gt;`},
		{"tab\tnew\nline", "tab\tnew\nline"},
		{"", ""},
	} {
		if got := string(visibleHTML(c.in)); got != c.want {
			t.Errorf("visibleHTML(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := visibleText("a\u200b\u200c\u200d\u2060\ufeff\u200e\u200f"); got != "a⟨U+200B⟩⟨U+200C⟩⟨U+200D⟩⟨U+2060⟩⟨U+FEFF⟩⟨U+200E⟩⟨U+200F⟩" {
		t.Errorf("visibleText = %q", got)
	}
	for r := rune(0x202A); r <= 0x202E; r++ {
		if !invisible(r) {
			t.Errorf("U+%04X not marked", r)
		}
	}
	for r := rune(0x2066); r <= 0x2069; r++ {
		if !invisible(r) {
			t.Errorf("U+%04X not marked", r)
		}
	}
	for _, r := range "aé漢ש ا😀⟨" {
		if invisible(r) {
			t.Errorf("%q marked", r)
		}
	}
}

// In a template, vis escapes HTML and marks controls; visText in an
// attribute or <option> holds the markers as text, escaped.
func TestVisTemplate(t *testing.T) {
	tpl := template.Must(template.New("t").Funcs(funcs).Parse(`<p title="{{visText .}}">{{vis .}}</p><option value="{{.}}">{{visText .}}</option><title>{{visText .}}</title>`))
	var b bytes.Buffer
	if err := tpl.Execute(&b, "<script>x</script>\u202E\"q"); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.Contains(out, "<script>") {
		t.Fatalf("unescaped: %s", out)
	}
	for _, want := range []string{
		`<p title="&lt;script&gt;x&lt;/script&gt;⟨U&#43;202E⟩&#34;q">`,
		`&lt;script&gt;x&lt;/script&gt;<span class="invis" title="invisible character U+202E RIGHT-TO-LEFT OVERRIDE">⟨U+202E⟩</span>&#34;q</p>`,
		"<option value=\"&lt;script&gt;x&lt;/script&gt;\u202E&#34;q\">",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %s in\n%s", want, out)
		}
	}
}
