// Package bench runs a load scenario and measures it whole: the engine
// (bench/engine) paces the mix and measures each call's latency, the
// instrumented client (bench/meter) sees what each call read and wrote, and
// the capacity ledger and model (bench/capacity) turn that into what real
// DynamoDB would charge and where it would throttle. Run is where the three
// meet; bench/report writes what it returns.
package bench
