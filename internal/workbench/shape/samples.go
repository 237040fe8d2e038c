package shape

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Sample is one sample item and the entity it belongs to.
type Sample struct {
	Entity *Entity
	Item   map[string]types.AttributeValue
	N      int // its place in Samples
}

// Samples are the sample items of every entity, entity by entity.
func (d *Design) Samples() []Sample {
	var out []Sample
	for _, e := range d.Entities {
		for _, it := range e.Samples {
			out = append(out, Sample{e, it, len(out)})
		}
	}
	return out
}
