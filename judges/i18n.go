package judges

import (
	"net/http"
)

// Languages the dashboard speaks. Spanish is the default.
const (
	LangES = "es"
	LangEN = "en"
)

// messages is the catalogue: every text the dashboard shows, by key, in
// Spanish and English. Infraction keys are "rule." + the rule code; event
// types are "event." + the type.
var messages = map[string]map[string]string{
	LangES: {
		"title":                  "Parchís — mesa de jueces",
		"tables":                 "Mesas",
		"table":                  "Mesa",
		"event":                  "Torneo",
		"online":                 "en línea",
		"offline":                "desconectada",
		"unknown":                "sin noticias",
		"turn":                   "Turno",
		"last-throw":             "Última tirada",
		"phase":                  "Fase",
		"seq":                    "Evento n.º",
		"feed":                   "Eventos",
		"history":                "Historial completo",
		"no-tables":              "Aún no hay mesas. Esperando al servidor MQTT…",
		"no-events":              "Sin eventos todavía.",
		"pending":                "Resultados por certificar",
		"no-pending":             "Ningún resultado espera certificación.",
		"result":                 "Resultado",
		"winner":                 "Ganan",
		"certified":              "Certificado",
		"rejected":               "Rechazado",
		"awaiting":               "Pendiente de certificar",
		"by":                     "por",
		"sign-in":                "Entrar",
		"sign-out":               "Salir",
		"signed-in-as":           "Juez",
		"user":                   "Usuario",
		"password":               "Contraseña",
		"bad-login":              "Usuario o contraseña incorrectos.",
		"need-login":             "Entre como juez para actuar sobre una mesa.",
		"certify":                "Certificar resultado",
		"reject":                 "Rechazar resultado",
		"reason":                 "Motivo",
		"correct":                "Corregir posición",
		"position":               "Posición (PPN)",
		"new-game":               "Nueva partida",
		"players":                "Jugadores",
		"starter":                "Empieza",
		"send":                   "Enviar",
		"ok":                     "Hecho: la mesa ha aceptado la orden.",
		"table-said":             "La mesa ha respondido con un error",
		"no-reply":               "La mesa no ha respondido a tiempo.",
		"no-result":              "Esta mesa no tiene resultado que certificar.",
		"already":                "Este resultado ya tiene veredicto.",
		"bad-signature":          "La firma de la mesa no es válida: este resultado no se puede certificar.",
		"sig-registered":         "Firmado por la mesa con su clave registrada.",
		"sig-unregistered":       "Firma válida, pero la clave de esta mesa no está registrada en el panel.",
		"sig-bad":                "Firma de la mesa NO válida",
		"verdict-untrusted":      "La firma del veredicto no es de un juez de confianza",
		"result-changed":         "El resultado ha cambiado desde que lo vio: revíselo de nuevo.",
		"bad-position":           "Posición no válida",
		"bad-form":               "Formulario no válido",
		"not-found":              "Mesa desconocida",
		"back":                   "Volver a las mesas",
		"gap":                    "eventos perdidos",
		"mismatch":               "El tablero no coincide con la partida en",
		"needs-check":            "La mesa necesita que un juez la revise",
		"too-many-tries":         "Demasiados intentos fallidos: espere %d s.",
		"lights":                 "Luces",
		"record":                 "Acta de la partida",
		"record-hash":            "SHA-256 del acta",
		"table-key":              "Clave de la mesa",
		"language":               "English",
		"live":                   "en directo",
		"reconnecting":           "reconectando…",
		"tables-offline":         "desconectadas",
		"actions":                "Acciones del juez",
		"colour.Y":               "Amarillo",
		"colour.B":               "Azul",
		"colour.R":               "Rojo",
		"colour.G":               "Verde",
		"pair.YR":                "Amarillo y Rojo",
		"pair.BG":                "Azul y Verde",
		"phase.throw":            "tirar",
		"phase.end":              "fin",
		"phase.bonus":            "premio",
		"phase.die":              "mover",
		"event.start":            "Inicio",
		"event.throw":            "Tirada",
		"event.rethrow":          "Repetir tirada",
		"event.move":             "Movimiento",
		"event.lost":             "Tirada perdida",
		"event.third-six":        "Tercer seis",
		"event.infraction":       "Infracción",
		"event.mismatch":         "Tablero descuadrado",
		"event.resolved":         "Tablero en orden",
		"event.correction":       "Corrección del juez",
		"event.result":           "Resultado",
		"rule.touched-piece":     "Ficha tocada",
		"rule.out-of-turn":       "Fuera de turno",
		"rule.wrong-colour":      "Color equivocado",
		"rule.backwards":         "Movimiento hacia atrás",
		"rule.wrong-count":       "Cuenta equivocada",
		"rule.barrier":           "Barrera",
		"rule.kill-not-done":     "Comida no hecha",
		"rule.must-exit":         "Obligado a sacar",
		"rule.must-open-barrier": "Obligado a abrir barrera",
		"rule.third-six-home":    "Tercer seis: a casa",
		"rule.bonus-not-played":  "Premio sin contar",
		"rule.early-throw":       "Tirada anticipada",
		"rule.illegal-move":      "Movimiento ilegal",
		"throw.edge":             "dado de canto",
		"throw.none":             "sin dado",
		"throw.multi":            "varios dados",
		"throw.unsure":           "lectura dudosa",
		"throw.suspicious":       "tirada sospechosa",
	},
	LangEN: {
		"title":                  "Parchís — judges' table",
		"tables":                 "Tables",
		"table":                  "Table",
		"event":                  "Event",
		"online":                 "online",
		"offline":                "offline",
		"unknown":                "no news",
		"turn":                   "Turn",
		"last-throw":             "Last throw",
		"phase":                  "Phase",
		"seq":                    "Event no.",
		"feed":                   "Events",
		"history":                "Full history",
		"no-tables":              "No tables yet. Waiting for the MQTT broker…",
		"no-events":              "No events yet.",
		"pending":                "Results awaiting certification",
		"no-pending":             "No result awaits certification.",
		"result":                 "Result",
		"winner":                 "Winners",
		"certified":              "Certified",
		"rejected":               "Rejected",
		"awaiting":               "Awaiting certification",
		"by":                     "by",
		"sign-in":                "Sign in",
		"sign-out":               "Sign out",
		"signed-in-as":           "Judge",
		"user":                   "User",
		"password":               "Password",
		"bad-login":              "Wrong user or password.",
		"need-login":             "Sign in as a judge to act on a table.",
		"certify":                "Certify result",
		"reject":                 "Reject result",
		"reason":                 "Reason",
		"correct":                "Correct position",
		"position":               "Position (PPN)",
		"new-game":               "New game",
		"players":                "Players",
		"starter":                "Starts",
		"send":                   "Send",
		"ok":                     "Done: the table accepted the command.",
		"table-said":             "The table answered with an error",
		"no-reply":               "The table did not answer in time.",
		"no-result":              "This table has no result to certify.",
		"already":                "This result already has a verdict.",
		"bad-signature":          "The table's signature does not verify: this result cannot be certified.",
		"sig-registered":         "Signed by the table with its registered key.",
		"sig-unregistered":       "Signature valid, but this table's key is not registered on the dashboard.",
		"sig-bad":                "Table's signature NOT valid",
		"verdict-untrusted":      "The verdict is not signed by a trusted judge",
		"result-changed":         "The result changed since you saw it: look at it again.",
		"bad-position":           "Invalid position",
		"bad-form":               "Invalid form",
		"not-found":              "Unknown table",
		"back":                   "Back to the tables",
		"gap":                    "events missed",
		"mismatch":               "The board disagrees with the game at",
		"needs-check":            "The table needs a judge's check",
		"too-many-tries":         "Too many failed tries: wait %d s.",
		"lights":                 "Lights",
		"record":                 "Game record",
		"record-hash":            "Record SHA-256",
		"table-key":              "Table key",
		"language":               "Español",
		"live":                   "live",
		"reconnecting":           "reconnecting…",
		"tables-offline":         "offline",
		"actions":                "Judge's actions",
		"colour.Y":               "Yellow",
		"colour.B":               "Blue",
		"colour.R":               "Red",
		"colour.G":               "Green",
		"pair.YR":                "Yellow and Red",
		"pair.BG":                "Blue and Green",
		"phase.throw":            "throw",
		"phase.end":              "end",
		"phase.bonus":            "bonus",
		"phase.die":              "move",
		"event.start":            "Start",
		"event.throw":            "Throw",
		"event.rethrow":          "Throw again",
		"event.move":             "Move",
		"event.lost":             "Throw lost",
		"event.third-six":        "Third six",
		"event.infraction":       "Infraction",
		"event.mismatch":         "Board mismatch",
		"event.resolved":         "Board agrees",
		"event.correction":       "Judge's correction",
		"event.result":           "Result",
		"rule.touched-piece":     "Touched piece",
		"rule.out-of-turn":       "Out of turn",
		"rule.wrong-colour":      "Wrong colour",
		"rule.backwards":         "Backwards move",
		"rule.wrong-count":       "Wrong count",
		"rule.barrier":           "Barrier",
		"rule.kill-not-done":     "Kill not made",
		"rule.must-exit":         "Must bring a piece out",
		"rule.must-open-barrier": "Must open the barrier",
		"rule.third-six-home":    "Third six: sent home",
		"rule.bonus-not-played":  "Bonus not played",
		"rule.early-throw":       "Early throw",
		"rule.illegal-move":      "Illegal move",
		"throw.edge":             "die on its edge",
		"throw.none":             "no die",
		"throw.multi":            "several dice",
		"throw.unsure":           "unsure reading",
		"throw.suspicious":       "suspicious throw",
	},
}

// RuleCodes are the infraction codes the catalogue names (DESIGN.md).
var RuleCodes = []string{
	"touched-piece", "out-of-turn", "wrong-colour", "backwards", "wrong-count",
	"barrier", "kill-not-done", "must-exit", "must-open-barrier",
	"third-six-home", "bonus-not-played", "early-throw", "illegal-move",
}

// T returns the text of key in lang, falling back to Spanish and then to
// the key itself, so an unknown rule code still shows.
func T(lang, key string) string {
	if m, ok := messages[lang]; ok {
		if s, ok := m[key]; ok {
			return s
		}
	}
	if s, ok := messages[LangES][key]; ok {
		return s
	}
	return key
}

// validLang reports whether the dashboard speaks lang.
func validLang(lang string) bool { _, ok := messages[lang]; return ok }

// langCookie is the cookie that remembers a chosen language.
const langCookie = "parchis_lang"

// pickLang chooses the language of a request: ?lang=, then the cookie
// that remembers it, then def. The browser's own language does not decide:
// the judges are Spanish and get Spanish unless they ask for English.
func pickLang(r *http.Request, def string) string {
	if l := r.URL.Query().Get("lang"); validLang(l) {
		return l
	}
	if c, err := r.Cookie(langCookie); err == nil && validLang(c.Value) {
		return c.Value
	}
	return def
}
