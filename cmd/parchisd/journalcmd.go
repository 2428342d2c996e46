package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/parchis-table/parchis/journal"
	"github.com/parchis-table/parchis/table"
)

// runJournal is parchisd journal check DIR and parchisd journal salvage DIR.
func runJournal(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("journal", "check DIR | salvage DIR",
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
		"  parchisd journal check /var/lib/parchisd\n  parchisd journal salvage /var/lib/parchisd", stderr)
	if st := parseFlags(fs, args); st >= 0 {
		return st
	}
	if fs.NArg() != 2 || (fs.Arg(0) != "check" && fs.Arg(0) != "salvage") {
		fmt.Fprintln(stderr, "usage: parchisd journal check DIR | parchisd journal salvage DIR")
		return exitUsage
	}
	dir := fs.Arg(1)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		fmt.Fprintf(stderr, "parchisd journal: %s: not a directory\n", dir)
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
			fmt.Fprintf(stdout, "%s: none\n", path)
			continue
		}
		if err != nil {
			fmt.Fprintf(stderr, "parchisd journal: %v\n", err)
			bad++
			continue
		}
		payloads, head, rep := journal.Scan(data)
		switch {
		case rep == nil:
			fmt.Fprintf(stdout, "%s: whole, %d records, head %s\n", path, len(payloads), head)
		case rep.Middle:
			bad++
			fmt.Fprintf(stdout, "%s: DAMAGED at byte %d (%s): the hash chain holds over the %d records before it (head %s) and breaks there; %d valid records follow, from byte %d\n",
				path, rep.Offset, rep.Reason, len(payloads), head, len(rep.Recovered), rep.RecoveredAt[0])
		default:
			bad++
			fmt.Fprintf(stdout, "%s: damaged tail at byte %d (%s, %d bytes): the hash chain holds over the %d records before it (head %s)\n",
				path, rep.Offset, rep.Reason, rep.Cut, len(payloads), head)
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
				fmt.Fprintf(stdout, "%s: no saved result to check the head against: %v\n", path, err)
			case json.Unmarshal(b, &sg) != nil || sg.JournalHead != head.String():
				bad++
				fmt.Fprintf(stdout, "%s: head %s is not the one %s names (%s)\n", path, head, saved, sg.JournalHead)
			}
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, table.CheckName)); err == nil {
		bad++
		fmt.Fprintf(stdout, "a judge must check the game: %s", b)
	}
	if bad > 0 {
		fmt.Fprintf(stdout, "%d problems\n", bad)
		return exitFail
	}
	return exitOK
}

// journalSalvage repairs dir's journal as the daemon does on start.
func journalSalvage(dir string, stdout, stderr io.Writer) int {
	path := filepath.Join(dir, table.JournalName)
	j, payloads, rep, err := journal.Open(path)
	if err != nil {
		fmt.Fprintf(stderr, "parchisd journal salvage: %v\n", err)
		return exitFail
	}
	head := j.Head()
	if err := j.Close(); err != nil {
		fmt.Fprintf(stderr, "parchisd journal salvage: %v\n", err)
		return exitFail
	}
	switch {
	case rep == nil:
		fmt.Fprintf(stdout, "%s: whole, %d records, head %s: nothing to salvage\n", path, len(payloads), head)
		kept, _ := filepath.Glob(path + ".damaged-*")
		for _, k := range kept {
			fmt.Fprintf(stdout, "  kept from an earlier salvage: %s\n", k)
		}
		return exitOK
	case !rep.Middle:
		fmt.Fprintf(stdout, "%s: damaged tail at byte %d (%s): %d bytes cut; %d records kept, the hash chain whole over them (head %s)\n",
			path, rep.Offset, rep.Reason, rep.Cut, len(payloads), head)
		return exitOK
	}
	script, err := table.SaveRecovered(rep)
	if err != nil {
		fmt.Fprintf(stderr, "parchisd journal salvage: %v\n", err)
		return exitFail
	}
	why := fmt.Sprintf("the journal was damaged at byte %d (%s); the game resumes from record %d, before the damage; %d records after it are in %s, the original in %s",
		rep.Offset, rep.Reason, len(payloads), len(rep.Recovered), script, rep.Original)
	if err := journal.WriteFileAtomic(filepath.Join(dir, table.CheckName), []byte(why+"\n"), 0o640); err != nil {
		fmt.Fprintf(stderr, "parchisd journal salvage: %v\n", err)
		return exitFail
	}
	fmt.Fprintf(stdout, "%s: damaged at byte %d (%s)\n", path, rep.Offset, rep.Reason)
	fmt.Fprintf(stdout, "  kept:      the original, untouched, as %s\n", rep.Original)
	fmt.Fprintf(stdout, "  journal:   cut to the %d records before the damage; the hash chain holds over them (head %s)\n", len(payloads), head)
	fmt.Fprintf(stdout, "  chain:     breaks at byte %d (record %d): the %d valid records after it, from byte %d, cannot be chained to those before\n",
		rep.Offset, len(payloads)+1, len(rep.Recovered), rep.RecoveredAt[0])
	fmt.Fprintf(stdout, "  recovered: %s\n", script)
	fmt.Fprintf(stdout, "  a judge must check the game before it goes on (%s)\n", filepath.Join(dir, table.CheckName))
	return exitOK
}
