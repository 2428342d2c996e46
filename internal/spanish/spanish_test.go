package spanish

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestSay(t *testing.T) {
	for _, c := range []struct{ en, es string }{
		{"no legal move: the throw is lost", "ningún movimiento posible: se pierde la tirada"},
		{"Yellow starts (opening Y), by judge ana", "empieza Amarillo (sorteo de salida Y), por el juez ana"},
		{"Red's piece moved during Blue's turn", "se movió una ficha roja en el turno de Azul"},
		{"kills Green's piece on 12; bonus 20; take it to GH", "come una ficha verde en 12; premio de 20; llévela a GH"},
		{`line 15: "Y 5 5-10": illegal move 5-10: pieces never move backwards (backwards, RULES.md §5)`,
			"línea 15: «Y 5 5-10»: movimiento ilegal 5-10: las fichas nunca retroceden (backwards, reglamento §5)"},
		{"line 9: header lacks the tag Table", "línea 9: a la cabecera le falta la etiqueta Table"},
		{"record replays to a win of BG, the result says YR", "el acta lleva a una victoria de BG, el resultado dice YR"},
		// the answers to a verdict that names the wrong result
		{"the result 0123456789abcdef is already certified by marta", "el resultado 0123456789abcdef ya está certificado por marta"},
		{"no result 0f0f0f0f0f0f0f0f at this table: waiting are 0123456789abcdef, fedcba9876543210",
			"esta mesa no tiene el resultado 0f0f0f0f0f0f0f0f: esperan 0123456789abcdef, fedcba9876543210"},
		{"no result is waiting for a judge (the verdict names 0f0f0f0f0f0f0f0f)", "ningún resultado espera a un juez (el veredicto nombra 0f0f0f0f0f0f0f0f)"},
		{"bad command: certify: no result abab at this table: its results are cdcd", "orden no válida: certify: esta mesa no tiene el resultado abab; los suyos son cdcd"},
		{"bad command: reject: missing record_sha256: name the result the verdict is for", "orden no válida: reject: falta record_sha256: indique a qué resultado va el veredicto"},
		{"flag provided but not defined: -x", "opción desconocida: -x"},
		{`invalid value "abc" for flag -n: parse error`, "valor «abc» no válido para la opción -n: no tiene la forma esperada"},
		{"open /nope/game.txt: no such file or directory", "/nope/game.txt: no existe"},
		{`sensors: no GPIO named "GPIO99"`, "sensores: no hay ningún GPIO llamado «GPIO99»"},
		{"broker: listen 127.0.0.1:1883: listen tcp 127.0.0.1:1883: bind: address already in use", "broker: escuchar en 127.0.0.1:1883: 127.0.0.1:1883: la dirección ya está en uso"},
		{`/etc/parchisd.yaml: config: line 4: camera.fps: 500: want 1 to 120`, "/etc/parchisd.yaml: configuración: línea 4: camera.fps: 500: de 1 a 120"},
		{"tile 4: no good answer: no answer", "placa 4: ninguna respuesta válida: no responde"},
		{"the journal cannot be written (write /d/table.journal: no space left on device): the game goes on in memory, 3 inputs held",
			"no se puede escribir el diario (/d/table.journal: no queda espacio en el disco): la partida sigue en memoria, con 3 entradas retenidas"},
	} {
		if got, ok := Say(c.en); !ok || got != c.es {
			t.Errorf("Say(%q) = %q, %v; want %q", c.en, got, ok, c.es)
		}
	}
	if got, ok := Say("something new"); ok || got != "something new" {
		t.Errorf("an unknown sentence: %q, %v", got, ok)
	}
}

func FuzzSay(f *testing.F) {
	f.Add("Yellow starts (opening Y), by judge ana")
	f.Add(`line 15: "Y 5 5-10": illegal move 5-10: pieces never move backwards (backwards, RULES.md §5)`)
	f.Fuzz(func(t *testing.T, s string) {
		if out, ok := Say(s); !ok && out != s {
			t.Fatalf("an unknown sentence changed: %q → %q", s, out)
		}
	})
}

func TestEnglishIn_SpanishIn(t *testing.T) {
	for _, c := range []struct {
		text   string
		en, es []string
	}{
		{"usage: parchis replay [-positions] FILE | -\n\nReplays the record.", []string{"usage", "the", "record"}, nil},
		{"uso: parchis verify -judges judges.json result-*.json games/YYYY_<table>.json", nil, []string{"uso"}},
		{"la ficha de la pareja vuelve a casa.", nil, []string{"la", "ficha", "de", "pareja", "casa"}},
		{"  -players texto\n    \tbots de Y,B,R,G, p. ej. mc,random,mc,random", nil, []string{"de"}},
	} {
		if got := EnglishIn(c.text); !slices.Equal(got, c.en) {
			t.Errorf("EnglishIn(%q) = %q, want %q", c.text, got, c.en)
		}
		if got := SpanishIn(c.text); !slices.Equal(got, c.es) {
			t.Errorf("SpanishIn(%q) = %q, want %q", c.text, got, c.es)
		}
	}
}

func TestLangFromEnv(t *testing.T) {
	for _, c := range []struct {
		lcAll, lcMessages, lang string
		want                    Lang
	}{
		{"", "", "es_ES.UTF-8", Spanish},
		{"", "", "en_US.UTF-8", English},
		{"", "", "", English},
		{"C", "", "es_ES.UTF-8", English},
		{"", "es_AR.UTF-8", "en_GB.UTF-8", Spanish},
		{"es_MX", "en_US", "en_US", Spanish},
	} {
		t.Setenv("LC_ALL", c.lcAll)
		t.Setenv("LC_MESSAGES", c.lcMessages)
		t.Setenv("LANG", c.lang)
		if got := LocaleLang(); got != c.want {
			t.Errorf("LC_ALL=%q LC_MESSAGES=%q LANG=%q: %s, want %s", c.lcAll, c.lcMessages, c.lang, got, c.want)
		}
	}
	if Spanish.Say("flag provided but not defined: -x") != "opción desconocida: -x" || English.Say("parse error") != "parse error" {
		t.Error("Lang.Say does not say the flag package's error in Spanish, or changes English")
	}
}

func TestEnglishLines(t *testing.T) {
	en := "usage: parchis replay FILE\n  parchis replay game.txt\nthe record is read"
	es := "uso: parchis replay FICHERO\n  parchis replay game.txt\nthe record is read"
	if got := EnglishLines(en, es); !slices.Equal(got, []string{"the record is read"}) {
		t.Errorf("EnglishLines = %q, want the one English line left", got)
	}
}

// Words inside keys and hashes are not words: a base64 key holds "bE".
func TestEnglishIn_KeysAreNotWords(t *testing.T) {
	if w := EnglishIn("clave StwqIejobfa56SQmY2oBbJNcn2DKH36bE4Vl1iiPLZQ= y hash 3b1f9c0e"); len(w) > 0 {
		t.Errorf("English words %q in a key", w)
	}
}

// BenchmarkSay says sentences as a judges' page does for each event: one
// found early in the catalogue, one late, one with no Spanish form (the
// whole catalogue tried); the first time (say), and again (Say, which
// remembers).
func BenchmarkSay(b *testing.B) {
	for _, s := range []string{
		"no legal move: the throw is lost",
		`line 15: "Y 5 5-10": illegal move 5-10: pieces never move backwards (backwards, RULES.md §5)`,
		"something the catalogue does not know",
	} {
		b.Run(s[:12], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				say(s)
			}
		})
		b.Run(s[:12]+" again", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Say(s)
			}
		})
	}
}

// Say's memory stays bounded: a long sentence is not kept, and it is
// emptied when full.
func TestSay_MemoryBounded(t *testing.T) {
	long := "line 1: " + strings.Repeat("x", maxSaidLen)
	if _, ok := Say(long); !ok {
		t.Error("a long sentence is not said")
	}
	said.Lock()
	_, kept := said.m[long]
	said.Unlock()
	if kept {
		t.Error("a sentence longer than maxSaidLen kept")
	}
	for i := range maxSaid + 10 {
		Say("sentence " + strconv.Itoa(i))
	}
	said.Lock()
	n := len(said.m)
	said.Unlock()
	if n > maxSaid {
		t.Errorf("%d sentences kept, want at most %d", n, maxSaid)
	}
}
