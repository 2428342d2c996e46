package referee_test

func (g *handGame) maybeMistake() bool { return false }
