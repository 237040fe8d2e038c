// Package deploy holds no Go code: it is the container image (Dockerfile)
// and the Kubernetes Job (k8s/bench-job.yaml) that run a sharded bench on
// real DynamoDB, and the specs that check them without a cluster or a
// container engine.
package deploy
