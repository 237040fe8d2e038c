package ddbitem

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func (p docPath) String() string {
	var b strings.Builder
	for i, e := range p {
		switch {
		case e.isIndex:
			b.WriteString("[" + strconv.Itoa(e.index) + "]")
		case i > 0:
			b.WriteString("." + e.name)
		default:
			b.WriteString(e.name)
		}
	}
	return b.String()
}

// get returns the value at p in item.
func (p docPath) get(item Item) (types.AttributeValue, bool) {
	v, ok := item[p[0].name]
	for _, e := range p[1:] {
		if !ok {
			return nil, false
		}
		v, ok = child(v, e)
	}
	return v, ok
}

func child(v types.AttributeValue, e pathElem) (types.AttributeValue, bool) {
	switch c := v.(type) {
	case *types.AttributeValueMemberM:
		if e.isIndex {
			return nil, false
		}
		x, ok := c.Value[e.name]
		return x, ok
	case *types.AttributeValueMemberL:
		if !e.isIndex || e.index >= len(c.Value) {
			return nil, false
		}
		return c.Value[e.index], true
	}
	return nil, false
}

// set stores v at p in item. item is the update's own copy; nested maps and
// lists on the way are copied before they change. An index past the end of
// a list appends, as DynamoDB does.
func (p docPath) set(item Item, v types.AttributeValue) error {
	if len(p) == 1 {
		item[p[0].name] = v
		return nil
	}
	parent, ok := item[p[0].name]
	if !ok {
		return fmt.Errorf("path %v: %s is not in the item", p, p[0].name)
	}
	nv, err := setIn(parent, p[1:], v)
	if err != nil {
		return fmt.Errorf("path %v: %w", p, err)
	}
	item[p[0].name] = nv
	return nil
}

func setIn(parent types.AttributeValue, rest docPath, v types.AttributeValue) (types.AttributeValue, error) {
	e := rest[0]
	switch c := parent.(type) {
	case *types.AttributeValueMemberM:
		if e.isIndex {
			return nil, fmt.Errorf("[%d] of a map", e.index)
		}
		m := maps.Clone(c.Value)
		if m == nil {
			m = map[string]types.AttributeValue{}
		}
		if len(rest) == 1 {
			m[e.name] = v
		} else {
			inner, ok := m[e.name]
			if !ok {
				return nil, fmt.Errorf("%s is missing", e.name)
			}
			nv, err := setIn(inner, rest[1:], v)
			if err != nil {
				return nil, err
			}
			m[e.name] = nv
		}
		return &types.AttributeValueMemberM{Value: m}, nil
	case *types.AttributeValueMemberL:
		if !e.isIndex {
			return nil, fmt.Errorf(".%s of a list", e.name)
		}
		l := slices.Clone(c.Value)
		switch {
		case len(rest) == 1 && e.index >= len(l):
			l = append(l, v)
		case e.index >= len(l):
			return nil, fmt.Errorf("[%d] is missing", e.index)
		case len(rest) == 1:
			l[e.index] = v
		default:
			nv, err := setIn(l[e.index], rest[1:], v)
			if err != nil {
				return nil, err
			}
			l[e.index] = nv
		}
		return &types.AttributeValueMemberL{Value: l}, nil
	}
	return nil, fmt.Errorf("%T holds no document path", parent)
}

// remove deletes the value at p; a path that is not there is no error, as
// in DynamoDB.
func (p docPath) remove(item Item) error {
	if len(p) == 1 {
		delete(item, p[0].name)
		return nil
	}
	parent, ok := item[p[0].name]
	if !ok {
		return nil
	}
	item[p[0].name] = removeIn(parent, p[1:])
	return nil
}

func removeIn(parent types.AttributeValue, rest docPath) types.AttributeValue {
	e := rest[0]
	switch c := parent.(type) {
	case *types.AttributeValueMemberM:
		inner, ok := c.Value[e.name]
		if e.isIndex || !ok {
			return parent
		}
		m := maps.Clone(c.Value)
		if len(rest) == 1 {
			delete(m, e.name)
		} else {
			m[e.name] = removeIn(inner, rest[1:])
		}
		return &types.AttributeValueMemberM{Value: m}
	case *types.AttributeValueMemberL:
		if !e.isIndex || e.index >= len(c.Value) {
			return parent
		}
		if len(rest) == 1 {
			return &types.AttributeValueMemberL{Value: slices.Delete(slices.Clone(c.Value), e.index, e.index+1)}
		}
		l := slices.Clone(c.Value)
		l[e.index] = removeIn(l[e.index], rest[1:])
		return &types.AttributeValueMemberL{Value: l}
	}
	return parent
}
