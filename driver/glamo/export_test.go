package glamo

// StageWords exposes stageWords to the external tests.
var StageWords = stageWords
