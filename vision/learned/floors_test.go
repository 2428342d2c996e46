package learned

// The committed model's figures, held as floors against a regression (the
// bars the table aims at are in the tests' comments; vision/train/REPORT.md
// has every figure). A new model raises them.
var (
	// read-rates on the crops of dice ≥40 px, a point under the
	// committed model's
	readFloor = map[string]float64{
		"tomitomi3_gray128": 0.971, "matteop65_wood": 0.734, "dice3_roboflow_v3": 0.091,
		"awsvegas_dice": 0.31, "skovy_catan_webcam": 0.387, "banachowicz_rpgsets": 0.402,
	}
	// multi answered on the frames of several dice ≥40 px: the bar is
	// 95%, awsvegas_dice's 90.3% (dice in piles, touching) is under it
	multiFloor = 0.893
)
