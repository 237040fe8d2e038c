package modelfile

import (
	"fmt"
	"math"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/internal/workbench/mcp"
)

// checkTraffic refuses an access pattern's declared traffic that no
// traffic can be: a rate of 0 or less, or an item size outside 1 byte to
// DynamoDB's item limit, which the MCP server's calculator refuses too.
// Source: https://github.com/awslabs/mcp/tree/main/src/dynamodb-mcp-server (the cost and performance calculator's access pattern: rps above 0, item_size_bytes 1 to 409,600)
func checkTraffic(aps []mcp.AccessPattern) error {
	for i, ap := range aps {
		at := fmt.Sprintf("$.access_patterns[%d]", i)
		if r := ap.Rate; r != nil && !(*r > 0) {
			return PathErr(at+".rps", fmt.Sprintf("%v: the pattern's requests per second at peak must be above 0; leave rps out for a pattern whose rate is not known", *r))
		}
		if b := ap.ItemBytes; b != nil && (*b < 1 || *b > ddbitem.MaxItemBytes || *b != math.Trunc(*b)) {
			return PathErr(at+".item_size_bytes", fmt.Sprintf("%v: an item's size is a whole number of bytes from 1 to %d, DynamoDB's item limit", *b, ddbitem.MaxItemBytes))
		}
	}
	return nil
}
