package spanish

import "testing"

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
