package lint

import "testing"

func TestEveryCheckHasARenderer(t *testing.T) {
	for _, c := range []string{CheckPartitionKey, CheckLSICollection, CheckItemGrowth, CheckItemSize, CheckHotItem, CheckNotProbed, CheckTransaction, CheckScan, CheckUnpagedQuery, CheckProjection, CheckFilteredRead} {
		if renderers[c] == nil {
			t.Errorf("check %s has no renderer: its findings would lose their sentences", c)
		}
	}
}
