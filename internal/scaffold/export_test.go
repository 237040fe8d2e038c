package scaffold

// AddElement exposes addElement to the external test package.
var AddElement = addElement
var RemoveElement = removeElement
