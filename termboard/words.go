package termboard

import (
	"strings"

	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/internal/spanish"
	"github.com/parchis-table/parchis/referee"
)

// Lang is the language of the words under the board.
type Lang string

// The languages the terminal speaks.
const (
	English = Lang(spanish.English)
	Spanish = Lang(spanish.Spanish)
)

// LangFromEnv picks the language from a locale such as the LANG
// variable's: Spanish for es_*, else English (spanish.LangFromEnv).
func LangFromEnv(locale string) Lang { return Lang(spanish.LangFromEnv(locale)) }

// LocaleLang is the language of the process's locale: LC_ALL, else
// LC_MESSAGES, else LANG (spanish.LocaleLang).
func LocaleLang() Lang { return Lang(spanish.LocaleLang()) }

// ParseLang parses "es" or "en".
func ParseLang(s string) (Lang, error) {
	l, err := spanish.ParseLang(s)
	return Lang(l), err
}

// Pick returns en or es, whichever is in the language l.
func (l Lang) Pick(en, es string) string { return spanish.Lang(l).Pick(en, es) }

// ColourName returns a colour's name.
func (l Lang) ColourName(c engine.Colour) string {
	if l == Spanish {
		return [...]string{"Amarillo", "Azul", "Rojo", "Verde"}[c]
	}
	return c.Name()
}

// colourOfLetter returns the name of the colour a letter names, or the
// letter itself when it names none.
func (l Lang) colourOfLetter(s string) string {
	c, err := engine.ParseColour(s)
	if err != nil {
		return s
	}
	return l.ColourName(c)
}

// ruleWords says what each infraction is, in words a player knows.
var ruleWords = map[string][2]string{
	referee.RuleTouchedPiece:    {"touched piece, played piece: move the one lifted", "ficha tocada, ficha jugada: mueve la levantada"},
	referee.RuleOutOfTurn:       {"a piece moved out of turn", "ficha movida fuera de turno"},
	referee.RuleWrongColour:     {"a piece of another colour moved", "movió una ficha de otro color"},
	referee.RuleBackwards:       {"a piece moved backwards", "ficha movida hacia atrás"},
	referee.RuleWrongCount:      {"a piece counted the wrong number of squares", "ficha contada mal"},
	referee.RuleBarrier:         {"a piece went through or onto a barrier", "ficha que pasa o cae en una barrera"},
	referee.RuleKillNotDone:     {"a killed piece left on the board: it goes home first", "ficha comida sin llevar a casa: primero a casa"},
	referee.RuleMustExit:        {"with a 5, a piece must come out of home", "con un 5 hay que sacar ficha de casa"},
	referee.RuleMustOpenBarrier: {"with a 6, the own barrier must be opened", "con un 6 hay que abrir la barrera propia"},
	referee.RuleThirdSixHome:    {"a throw before the piece of a third 6 went home", "tirada antes de llevar a casa la ficha del tercer 6"},
	referee.RuleBonusNotPlayed:  {"the bonus (count 20 or 10) was not played before throwing", "no se contó el premio (20 o 10) antes de tirar"},
	referee.RuleEarlyThrow:      {"the die was thrown before the move was made", "se tiró el dado antes de mover"},
	referee.RuleIllegalMove:     {"a move the rules do not allow", "un movimiento que las reglas no permiten"},
}

// RuleWords says in words what an infraction's rule code means; the code
// itself for a code it does not know.
func (l Lang) RuleWords(rule string) string {
	w, ok := ruleWords[rule]
	if !ok {
		return rule
	}
	return l.Pick(w[0], w[1])
}

// EventLine says what an event means, in one line.
func (l Lang) EventLine(e referee.Event) string {
	who := l.colourOfLetter(e.Colour)
	switch e.Type {
	case referee.EventStart:
		return l.Pick("A game starts: "+who+" plays first", "Empieza una partida: sale "+who)
	case referee.EventThrow:
		return l.Pick(who+" throws "+e.Throw, who+" saca "+e.Throw)
	case referee.EventRethrow:
		return l.Pick(who+" throws again: the die "+l.dieWords(e.Throw), who+" repite la tirada: dado "+l.dieWords(e.Throw))
	case referee.EventMove:
		if l == English && e.Detail != "" {
			return who + " plays " + e.Move + ": " + e.Detail
		}
		if strings.Contains(e.Move, "x") {
			return l.Pick(who+" plays "+e.Move+" and kills", who+" juega "+e.Move+" y come")
		}
		return l.Pick(who+" plays "+e.Move, who+" juega "+e.Move)
	case referee.EventLost:
		return l.Pick(who+" loses "+e.Throw+": no legal move", who+" pierde el "+e.Throw+": no hay movimiento")
	case referee.EventThirdSix:
		return l.Pick(who+": third 6, the last piece moved goes home", who+": tercer 6, la última ficha movida vuelve a casa")
	case referee.EventInfraction:
		return l.Pick("INFRACTION by "+who+": ", "INFRACCIÓN de "+who+": ") + l.RuleWords(e.Rule)
	case referee.EventMismatch:
		return l.Pick("The board does not match the game at "+sites(e.Sites), "El tablero no coincide con la partida en "+sites(e.Sites))
	case referee.EventResolved:
		return l.Pick("The board matches the game again", "El tablero vuelve a coincidir con la partida")
	case referee.EventCorrection:
		return l.Pick("A judge set the position", "Un juez corrigió la posición")
	case referee.EventResult:
		return l.Pick("Game over: "+l.pairName(e.Result)+" win; a judge certifies it on the dashboard",
			"Fin de la partida: ganan "+l.pairName(e.Result)+"; un juez la certifica en el panel")
	}
	return strings.TrimSpace(e.Type + " " + e.Colour + " " + e.Detail)
}

// Ask says what the lights ask of the players after an event worth
// explaining: an infraction, a rethrow, an owed action, the result.
func (l Lang) Ask(e referee.Event) string {
	switch e.Type {
	case referee.EventRethrow:
		return l.Pick("the tray blinks magenta: throw the die again", "la bandeja parpadea en magenta: tira el dado otra vez")
	case referee.EventMove:
		if strings.Contains(e.Move, "x") {
			return l.Pick("the victim blinks orange: take it to its home (orange); then count 20 with any piece",
				"la víctima parpadea en naranja: llévala a su casa (en naranja); luego cuenta 20 con cualquier ficha")
		}
	case referee.EventThirdSix:
		return l.Pick("the piece blinks orange: take it home; the turn passes", "la ficha parpadea en naranja: llévala a casa; pasa el turno")
	case referee.EventResult:
		return l.Pick("the winners' goals pulse: a judge certifies the result on the dashboard",
			"las metas de los ganadores laten: un juez certifica el resultado en el panel")
	case referee.EventMismatch:
		return l.Pick(boardWrong[0], boardWrong[1])
	case referee.EventInfraction:
		switch e.Rule {
		case referee.RuleEarlyThrow, referee.RuleBonusNotPlayed, referee.RuleKillNotDone, referee.RuleThirdSixHome:
			return l.Pick("this throw does not count: first do what blinks (white: the move; orange: a piece home), then throw",
				"esta tirada no cuenta: primero lo que parpadea (blanco: el movimiento; naranja: ficha a casa), luego tira")
		case referee.RuleTouchedPiece:
			return l.Pick("put the piece back; the one lifted first must move, to where white pulses",
				"devuelve la ficha; mueve la que se levantó primero, adonde late el blanco")
		}
		return l.Pick(boardWrong[0], boardWrong[1])
	}
	return ""
}

// boardWrong is what the lights ask when a piece stands where it should not.
var boardWrong = [2]string{
	"magenta blinks where a piece should not be, its colour where one is missing: put it back, then play",
	"parpadea en magenta donde sobra una ficha y en su color donde falta: devuélvela y juega",
}

// dieWords says what was wrong with a throw to repeat.
func (l Lang) dieWords(throw string) string {
	w, ok := map[string][2]string{
		"edge":       {"on its edge", "de canto"},
		"none":       {"out of the tray", "fuera de la bandeja"},
		"multi":      {"not alone in the tray", "no está solo en la bandeja"},
		"unsure":     {"unreadable", "ilegible"},
		"suspicious": {"not seen tumbling", "sin rodar"},
	}[throw]
	if !ok {
		return throw
	}
	return l.Pick(w[0], w[1])
}

func sites(s []string) string {
	if len(s) == 0 {
		return "?"
	}
	return strings.Join(s, " ")
}

// pairName names a pair written as its two colour letters (YR, BG).
func (l Lang) pairName(p string) string {
	if len(p) != 2 {
		return p
	}
	return l.colourOfLetter(p[:1]) + l.Pick(" and ", " y ") + l.colourOfLetter(p[1:])
}

// The meanings of the lights, for the legend.
type meaning int

const (
	meanTurn meaning = iota
	meanMayMove
	meanMayGo
	meanOwed
	meanProvisional
	meanWrong
	meanMissing
	meanRethrow
	meanWinners
	meanRobotTo
	numMeanings
)

var meaningWords = [numMeanings][2]string{
	meanTurn:        {"whose turn", "turno"},
	meanMayMove:     {"may move", "puede mover"},
	meanMayGo:       {"~ may go", "~ puede ir"},
	meanOwed:        {"! owed: take home", "! debida: a casa"},
	meanProvisional: {"~ wait", "~ espera"},
	meanWrong:       {"! should not be there", "! sobra"},
	meanMissing:     {"! missing", "! falta"},
	meanRethrow:     {"! throw again", "! repetir tirada"},
	meanWinners:     {"~ winners", "~ ganan"},
	meanRobotTo:     {"~ robot's move: put it here", "~ jugada del robot: aquí"},
}
