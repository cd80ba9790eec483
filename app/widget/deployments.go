package widget

import "github.com/dpplay/dpplay/app/deployments"

// Deployments returns the real deployments every ε slider marks: the rows of
// package deployments' file, in its order.
func Deployments() ([]deployments.Deployment, error) { return deployments.All() }
