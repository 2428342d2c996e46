package main

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/parchis-table/parchis/broadcast"
)

// TestSim_WinChanceInState: the simulated table publishes, after moves, a
// state with each pair's win chance for its position: the chances add up
// to 1, lie within their interval, come from the configured playouts, and
// always belong to the position of the state that carries them.
func TestSim_WinChanceInState(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the simulated table")
	}
	t.Parallel()
	bin := buildDaemon(t)
	dir := t.TempDir()
	cfg, broker, _ := simConfig(t, dir, "", "win_chance:\n  playouts: 300\n")
	cmd, _, _ := startSimLogged(t, bin, "-config", cfg, "-speed", "20")
	defer func() { cmd.Process.Signal(syscall.SIGTERM); cmd.Wait() }()

	var mu sync.Mutex
	seen := map[uint64]broadcast.State{}
	o := mqtt.NewClientOptions().AddBroker("tcp://" + broker).SetClientID("winchance-viewer").SetCleanSession(true)
	cli := mqtt.NewClient(o)
	if tok := cli.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("viewer cannot connect: %v", tok.Error())
	}
	defer cli.Disconnect(100)
	tok := cli.Subscribe(broadcast.Prefix("local", "1")+broadcast.TopicState, 1, func(_ mqtt.Client, m mqtt.Message) {
		var s broadcast.State
		if err := json.Unmarshal(m.Payload(), &s); err != nil {
			t.Errorf("state %s: %v", m.Payload(), err)
			return
		}
		if s.WinChance != nil {
			mu.Lock()
			seen[s.WinChance.Seq] = s
			mu.Unlock()
		}
	})
	if !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("subscribe: %v", tok.Error())
	}
	waitCount(t, &mu, func() int { return len(seen) }, 10, 90*time.Second, "states with a win chance")
	mu.Lock()
	defer mu.Unlock()
	moved := false
	for seq, s := range seen {
		w := s.WinChance
		if math.Abs(w.YR+w.BG-1) > 1e-9 || w.YR < w.YRLow || w.YR > w.YRHigh || w.Playouts != 300 {
			t.Errorf("event %d: win chance %+v", seq, *w)
		}
		if w.Seq > s.Seq {
			t.Errorf("state at event %d carries the win chance of a later event %d", s.Seq, w.Seq)
		}
		moved = moved || (w.YR != 0.5 && !strings.Contains(s.Position, "end"))
	}
	if !moved {
		t.Errorf("every win chance is 0.5: %v", seen)
	}
}

// TestSim_RobotPartner: with a robot at Green in the configuration, the
// state names it, and at Green's moves the lights (as published) show
// only the piece to lift, white, and the square to put it on, pulsing in
// Green's colour; the simulated players read them and the game goes on.
// A greedy robot chooses at once; an mc robot thinks on a goroutine of
// its own, and the lights are drawn again once it has chosen.
func TestSim_RobotPartner(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the simulated table")
	}
	t.Parallel()
	bin := buildDaemon(t)
	for _, level := range []string{"greedy", "mc:200"} {
		t.Run(level, func(t *testing.T) { robotPartner(t, bin, level) })
	}
}

func robotPartner(t *testing.T, bin, level string) {
	dir := t.TempDir()
	cfg, broker, _ := simConfig(t, dir, "", "bots:\n  G: "+level+"\n")
	cmd, _, _ := startSimLogged(t, bin, "-config", cfg, "-speed", "20")
	defer func() { cmd.Process.Signal(syscall.SIGTERM); cmd.Wait() }()

	var mu sync.Mutex
	shown := map[string]bool{} // positions where Green's move was lit
	var bad []string
	o := mqtt.NewClientOptions().AddBroker("tcp://" + broker).SetClientID("robot-viewer-" + level).SetCleanSession(true)
	cli := mqtt.NewClient(o)
	if tok := cli.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("viewer cannot connect: %v", tok.Error())
	}
	defer cli.Disconnect(100)
	tok := cli.Subscribe(broadcast.Prefix("local", "1")+broadcast.TopicState, 1, func(_ mqtt.Client, m mqtt.Message) {
		var s broadcast.State
		if json.Unmarshal(m.Payload(), &s) != nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if s.Robots["G"] != level || len(s.Robots) != 1 {
			bad = append(bad, "robots "+s.Position)
		}
		f := strings.Fields(s.Position)
		if f[1] != "G" || f[2] == "throw" || f[2] == "end" || len(s.Mismatch) > 0 {
			return
		}
		white, green := 0, 0
		for _, l := range s.Lights {
			switch {
			case l.Colour == "#ffffff" && l.Pattern == "steady":
				white++
			case l.Colour == "#00c828" && l.Pattern == "pulse" && !strings.HasPrefix(l.Site, "T"):
				green++
			}
		}
		if white == 1 && green == 1 {
			shown[s.Position] = true
		}
	})
	if !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("subscribe: %v", tok.Error())
	}
	waitCount(t, &mu, func() int { return len(shown) }, 5, 120*time.Second, "positions with Green's move lit")
	mu.Lock()
	defer mu.Unlock()
	if len(bad) > 0 {
		t.Errorf("states without the robot: %v", bad[:min(3, len(bad))])
	}
}

// TestSim_NewGameSeatsRobots: a judge's new-game seats the robot partners
// it names, and takes back the configured robot's seat it gives a person;
// the seats are journaled with the game's start, so that the daemon,
// killed and started again, seats them again and not the configuration's.
func TestSim_NewGameSeatsRobots(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the daemon")
	}
	t.Parallel()
	bin := buildDaemon(t)
	dir := t.TempDir()
	cfg, broker, _, marta := judgeConfig(t, dir, "bots:\n  G: greedy\n")
	cmd, _, _ := startSimLogged(t, bin, "-config", cfg, "-speed", "5")
	defer func() { cmd.Process.Signal(syscall.SIGTERM); cmd.Wait() }()
	j := connectJudge(t, broker, "marta", "s3cret")

	// waitRobots waits for the state, as a viewer connected to the
	// daemon's broker sees it, to name the robots want.
	waitRobots := func(viewer, want string) {
		t.Helper()
		var mu sync.Mutex
		var robots map[string]string
		o := mqtt.NewClientOptions().AddBroker("tcp://" + broker).SetClientID(viewer).SetCleanSession(true)
		cli := mqtt.NewClient(o)
		if tok := cli.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
			t.Fatalf("viewer cannot connect: %v", tok.Error())
		}
		defer cli.Disconnect(100)
		cli.Subscribe(broadcast.Prefix("local", "1")+broadcast.TopicState, 1, func(_ mqtt.Client, m mqtt.Message) {
			var s broadcast.State
			if json.Unmarshal(m.Payload(), &s) == nil {
				mu.Lock()
				robots = s.Robots
				mu.Unlock()
			}
		}).WaitTimeout(10 * time.Second)
		deadline := time.Now().Add(20 * time.Second)
		for {
			mu.Lock()
			got := fmt.Sprint(robots)
			mu.Unlock()
			if got == want {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("state's robots %s, want %s", got, want)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	waitRobots("seats-viewer", "map[G:greedy]")
	players := map[string]string{"Y": "Ana", "B": "Robot", "R": "Carla", "G": "Dani"}
	r := j.command(t, marta, broadcast.Command{ID: "n1", Type: "new-game", Judge: "marta", Starter: "Y", Players: players,
		Bots: map[string]string{"Y": "none", "B": "mc:50", "R": "none", "G": "none"}})
	if !r.OK {
		t.Fatalf("new-game with robots: %+v", r)
	}
	waitRobots("seats-viewer-2", "map[B:mc:50]")
	r = j.command(t, marta, broadcast.Command{ID: "n2", Type: "new-game", Judge: "marta", Starter: "Y", Players: players,
		Bots: map[string]string{"Y": "greedy", "B": "greedy", "R": "greedy", "G": "greedy"}})
	if r.OK || !strings.Contains(r.Error, "every colour is a bot") {
		t.Errorf("new-game with four robots: %+v, want refused", r)
	}

	// Killed and started again: the game goes on with its robot.
	cmd.Process.Kill()
	cmd.Wait()
	cmd, _, _ = startSimLogged(t, bin, "-config", cfg, "-speed", "5")
	waitRobots("seats-viewer-3", "map[B:mc:50]")
}

// waitCount polls count, under mu, until it reaches want or timeout
// passes; what names what is counted in the failure.
func waitCount(t *testing.T, mu *sync.Mutex, count func() int, want int, timeout time.Duration, what string) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		mu.Lock()
		n := count()
		mu.Unlock()
		if n >= want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d %s in %v, want %d", n, what, timeout, want)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
