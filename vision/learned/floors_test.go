package learned

// The committed reader's figures, held as floors against a regression (the
// bars the table aims at are in the tests' comments; vision/train/REPORT.md
// has every figure). A new model or a new witness raises them.
var (
	// read-rates on the crops of dice ≥40 px, a point under the
	// committed reader's (the network, with the pip rules the second
	// witness of a die it is unsure of and the box witness the third)
	readFloor = map[string]float64{
		"tomitomi3_gray128": 0.99, "matteop65_wood": 0.969, "dice3_roboflow_v3": 0.789,
		"awsvegas_dice": 0.825, "skovy_catan_webcam": 0.718, "banachowicz_rpgsets": 0.836,
	}
)
