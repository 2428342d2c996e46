package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/parchis-table/parchis/internal/spanish"
	"github.com/parchis-table/parchis/journal"
	"github.com/parchis-table/parchis/table"
)

// runJournal is parchisd journal check DIR and parchisd journal salvage DIR.
func runJournal(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	l := spanish.LocaleLang()
	fs := newFlags("journal", l.Pick("check DIR | salvage DIR", "check CARPETA | salvage CARPETA"), l.Pick(
		"check reads the table's journal (DIR/table.journal) and every archived game's\n"+
			"journal (DIR/games/YYYY-MM-DD_<table>_<n>.journal) without changing\n"+
			"anything, and says for each whether its records and hash chain are whole,\n"+
			"and for an archive whether\n"+
			"its head is the one its saved result names. Exit 1 when anything is damaged.\n\n"+
			"salvage repairs DIR/table.journal as the daemon does on start: damage in the\n"+
			"middle (valid records after a bad one) keeps the original file beside it,\n"+
			"cuts the journal at the last consistent point, writes the records found after\n"+
			"the damage as a table script for a judge, and marks the game as needing a\n"+
			"judge's check; a damaged tail is cut. It says where the hash chain breaks.",
		"check lee el diario de la mesa (CARPETA/table.journal) y el de cada partida\n"+
			"archivada (CARPETA/games/YYYY-MM-DD_<table>_<n>.journal) sin cambiar nada, y\n"+
			"dice de cada uno si sus registros y su cadena de hashes están enteros y, en\n"+
			"un archivo, si su cabeza es la que indica su resultado guardado. Estado 1 si\n"+
			"algo está dañado.\n\n"+
			"salvage repara CARPETA/table.journal como hace el demonio al arrancar: un daño\n"+
			"en medio (registros válidos tras uno malo) deja el fichero original al lado,\n"+
			"corta el diario en el último punto coherente, escribe los registros hallados\n"+
			"tras el daño como guion de mesa para un juez, y marca la partida para que la\n"+
			"revise un juez; un final dañado se corta. Dice dónde se rompe la cadena."),
		"  parchisd journal check /var/lib/parchisd\n  parchisd journal salvage /var/lib/parchisd", stderr)
	if st := parseFlags(fs, args); st >= 0 {
		return st
	}
	if fs.NArg() != 2 || (fs.Arg(0) != "check" && fs.Arg(0) != "salvage") {
		fmt.Fprintln(stderr, l.Pick("usage: parchisd journal check DIR | parchisd journal salvage DIR", "uso: parchisd journal check CARPETA | parchisd journal salvage CARPETA"))
		return exitUsage
	}
	dir := fs.Arg(1)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		fmt.Fprintf(stderr, l.Pick("parchisd journal: %s: not a directory\n", "parchisd journal: %s: no es una carpeta\n"), dir)
		return exitUsage
	}
	if fs.Arg(0) == "check" {
		return journalCheck(dir, stdout, stderr)
	}
	return journalSalvage(dir, stdout, stderr)
}

// journalCheck reports on every journal of dir.
func journalCheck(dir string, stdout, stderr io.Writer) int {
	bad := 0
	archives, _ := filepath.Glob(filepath.Join(dir, "games", "*.journal"))
	slices.Sort(archives)
	for _, path := range append(archives, filepath.Join(dir, table.JournalName)) {
		data, err := os.ReadFile(path)
		if os.IsNotExist(err) && path == filepath.Join(dir, table.JournalName) {
			fmt.Fprintf(stdout, spanish.Pick("%s: none\n", "%s: no hay\n"), path)
			continue
		}
		if err != nil {
			fmt.Fprintf(stderr, "parchisd journal: %s\n", spanish.Local(err.Error()))
			bad++
			continue
		}
		payloads, head, rep := journal.Scan(data)
		switch {
		case rep == nil:
			fmt.Fprintf(stdout, spanish.Pick("%s: whole, %d records, head %s\n", "%s: entero, %d registros, cabeza %s\n"), path, len(payloads), head)
		case rep.Middle:
			bad++
			fmt.Fprintf(stdout, spanish.Pick("%s: DAMAGED at byte %d (%s): the hash chain holds over the %d records before it (head %s) and breaks there; %d valid records follow, from byte %d\n", "%s: DAÑADO en el byte %d (%s): la cadena de hashes se mantiene en los %d registros anteriores (cabeza %s) y se rompe ahí; siguen %d registros válidos, desde el byte %d\n"),
				path, rep.Offset, spanish.Local(rep.Reason), len(payloads), head, len(rep.Recovered), rep.RecoveredAt[0])
		default:
			bad++
			fmt.Fprintf(stdout, spanish.Pick("%s: damaged tail at byte %d (%s, %d bytes): the hash chain holds over the %d records before it (head %s)\n", "%s: final dañado en el byte %d (%s, %d bytes): la cadena de hashes se mantiene en los %d registros anteriores (cabeza %s)\n"),
				path, rep.Offset, spanish.Local(rep.Reason), rep.Cut, len(payloads), head)
		}
		if strings.HasSuffix(path, ".journal") && filepath.Dir(path) == filepath.Join(dir, "games") {
			saved := strings.TrimSuffix(path, ".journal") + ".json"
			var sg struct {
				JournalHead string `json:"journal_head"`
			}
			b, err := os.ReadFile(saved)
			switch {
			case err != nil:
				bad++
				fmt.Fprintf(stdout, spanish.Pick("%s: no saved result to check the head against: %v\n", "%s: no hay resultado guardado con el que comprobar la cabeza: %v\n"), path, err)
			case json.Unmarshal(b, &sg) != nil || sg.JournalHead != head.String():
				bad++
				fmt.Fprintf(stdout, spanish.Pick("%s: head %s is not the one %s names (%s)\n", "%s: la cabeza %s no es la que indica %s (%s)\n"), path, head, saved, sg.JournalHead)
			}
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, table.CheckName)); err == nil {
		bad++
		fmt.Fprintf(stdout, spanish.Pick("a judge must check the game: %s\n", "un juez debe revisar la partida: %s\n"), spanish.Local(strings.TrimSpace(string(b))))
	}
	if bad > 0 {
		fmt.Fprintf(stdout, spanish.Pick("%d problems\n", "%d problemas\n"), bad)
		return exitFail
	}
	return exitOK
}

// journalSalvage repairs dir's journal as the daemon does on start.
func journalSalvage(dir string, stdout, stderr io.Writer) int {
	path := filepath.Join(dir, table.JournalName)
	j, payloads, rep, err := journal.Open(path)
	if err != nil {
		fmt.Fprintf(stderr, "parchisd journal salvage: %s\n", spanish.Local(err.Error()))
		return exitFail
	}
	head := j.Head()
	if err := j.Close(); err != nil {
		fmt.Fprintf(stderr, "parchisd journal salvage: %s\n", spanish.Local(err.Error()))
		return exitFail
	}
	switch {
	case rep == nil:
		fmt.Fprintf(stdout, spanish.Pick("%s: whole, %d records, head %s: nothing to salvage\n", "%s: entero, %d registros, cabeza %s: nada que rescatar\n"), path, len(payloads), head)
		kept, _ := filepath.Glob(path + ".damaged-*")
		for _, k := range kept {
			fmt.Fprintf(stdout, spanish.Pick("  kept from an earlier salvage: %s\n", "  guardado de un rescate anterior: %s\n"), k)
		}
		return exitOK
	case !rep.Middle:
		fmt.Fprintf(stdout, spanish.Pick("%s: damaged tail at byte %d (%s): %d bytes cut; %d records kept, the hash chain whole over them (head %s)\n", "%s: final dañado en el byte %d (%s): %d bytes cortados; %d registros conservados, con la cadena de hashes entera (cabeza %s)\n"),
			path, rep.Offset, spanish.Local(rep.Reason), rep.Cut, len(payloads), head)
		return exitOK
	}
	script, err := table.SaveRecovered(rep)
	if err != nil {
		fmt.Fprintf(stderr, "parchisd journal salvage: %s\n", spanish.Local(err.Error()))
		return exitFail
	}
	why := fmt.Sprintf("the journal was damaged at byte %d (%s); the game resumes from record %d, before the damage; %d records after it are in %s, the original in %s",
		rep.Offset, spanish.Local(rep.Reason), len(payloads), len(rep.Recovered), script, rep.Original)
	if err := journal.WriteFileAtomic(filepath.Join(dir, table.CheckName), []byte(why+"\n"), 0o640); err != nil {
		fmt.Fprintf(stderr, "parchisd journal salvage: %s\n", spanish.Local(err.Error()))
		return exitFail
	}
	fmt.Fprintf(stdout, spanish.Pick("%s: damaged at byte %d (%s)\n", "%s: dañado en el byte %d (%s)\n"), path, rep.Offset, spanish.Local(rep.Reason))
	fmt.Fprintf(stdout, spanish.Pick("  kept:      the original, untouched, as %s\n", "  guardado:  el original, intacto, como %s\n"), rep.Original)
	fmt.Fprintf(stdout, spanish.Pick("  journal:   cut to the %d records before the damage; the hash chain holds over them (head %s)\n", "  diario:    cortado a los %d registros anteriores al daño; la cadena de hashes se mantiene en ellos (cabeza %s)\n"), len(payloads), head)
	fmt.Fprintf(stdout, spanish.Pick("  chain:     breaks at byte %d (record %d): the %d valid records after it, from byte %d, cannot be chained to those before\n", "  cadena:    se rompe en el byte %d (registro %d): los %d registros válidos de después, desde el byte %d, no se pueden encadenar con los anteriores\n"),
		rep.Offset, len(payloads)+1, len(rep.Recovered), rep.RecoveredAt[0])
	fmt.Fprintf(stdout, spanish.Pick("  recovered: %s\n", "  rescatado: %s\n"), script)
	fmt.Fprintf(stdout, spanish.Pick("  a judge must check the game before it goes on (%s)\n", "  un juez debe revisar la partida antes de seguir (%s)\n"), filepath.Join(dir, table.CheckName))
	return exitOK
}
