package httpx

import (
	"encoding/json"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
)

func TestCleanText(t *testing.T) {
	for in, want := range map[string]string{
		"A\x00B\x07C":                     "ABC",
		"a\r\nb\rc\nd\te":                 "a\nb\nc\nd\te",
		"x\x7fy\u0085z\u009f":             "xyz",
		"Ana\u202Egnp.exe\u2066\u2069":    "Anagnp.exe",
		"ção 😀 👩‍💻 \u200e":                "ção 😀 👩‍💻 \u200e",
		"\ufdd0\uffff\U0001fffe\ufffdfim": "\ufffdfim",
		"":                                "",
	} {
		if got := CleanText(in); got != want {
			t.Errorf("CleanText(%q) = %q, want %q", in, got, want)
		}
	}
}

type inner struct {
	Name string
	Tags []string
}

type body struct {
	Name    string
	Ptr     *string
	Inner   inner
	Inners  []*inner
	Map     map[string]string
	Any     any
	Raw     json.RawMessage
	private string
}

func TestDecodeJSON_CleansEveryString(t *testing.T) {
	raw := `{"Name":"A\u0000B\u0007C","Ptr":"p\r\nq","Inner":{"Name":"i\u0000","Tags":["t\u001b1"]},
		"Inners":[{"Name":"\u0001x"}],"Map":{"k\u0000":"v\u0000"},"Any":{"a":["\u0000s",{"b":"\u0007c"}],"n":1},"Raw":{"r":"\u0000"}}`
	r := httptest.NewRequest("POST", "/", strings.NewReader(raw))
	var b body
	if err := DecodeJSON(httptest.NewRecorder(), r, &b); err != nil {
		t.Fatal(err)
	}
	want := body{Name: "ABC", Ptr: ptr("p\nq"), Inner: inner{Name: "i", Tags: []string{"t1"}}, Inners: []*inner{{Name: "x"}},
		Map: map[string]string{"k": "v"}, Any: map[string]any{"a": []any{"s", map[string]any{"b": "c"}}, "n": 1.0},
		Raw: json.RawMessage(`{"r":"\u0000"}`)}
	if !reflect.DeepEqual(b, want) {
		t.Fatalf("got  %#v\nwant %#v", b, want)
	}
	var s string
	if err := DecodeJSON(httptest.NewRecorder(), httptest.NewRequest("POST", "/", strings.NewReader(`"a\u0000b"`)), &s); err != nil || s != "ab" {
		t.Fatalf("a bare string: %q %v", s, err)
	}
	var a any
	if err := DecodeJSON(httptest.NewRecorder(), httptest.NewRequest("POST", "/", strings.NewReader(`"a\u0000b"`)), &a); err != nil || a != "ab" {
		t.Fatalf("a string in an interface: %q %v", a, err)
	}
}

func ptr(s string) *string { return &s }
