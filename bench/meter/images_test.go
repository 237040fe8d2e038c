package meter

import (
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
)

// An image lately written is read back from memory, not the file, and the
// images kept so stay within their bounds, the first kept leaving first.
func TestImagesKeepTheLatestInMemory(t *testing.T) {
	im := newImages()
	if im.f == nil {
		t.Fatal("no temporary file for the images: the test needs one to read from")
	}
	item := func(i int) ddbitem.Item {
		return ddbitem.Item{"PK": &types.AttributeValueMemberS{Value: fmt.Sprintf("USER#%06d", i)}, "Pad": &types.AttributeValueMemberS{Value: string(make([]byte, 100))}}
	}
	first := im.put(item(0))
	last := first
	for i := 1; i < 10_000; i++ {
		last = im.put(item(i))
	}
	if len(im.recent.by) > recentImages || im.recent.bytes > recentBytes || len(im.recent.by) != len(im.recent.queue) {
		t.Fatalf("kept %d images (%d queued) of %d bytes: want at most %d images and %d bytes", len(im.recent.by), len(im.recent.queue), im.recent.bytes, recentImages, recentBytes)
	}
	if _, ok := im.recent.get(first.off); ok {
		t.Errorf("the first image written is still kept after %d bytes of later ones", 10_000*100)
	}
	// The file closed, the latest image still reads, and an old one no
	// longer does: the latest comes from memory.
	im.f.Close()
	if got := im.get(last); !ddbitem.Equal(got, item(9_999)) {
		t.Errorf("the latest image read back as %v, want item 9999", got)
	}
	if got := im.get(first); got != nil {
		t.Errorf("the first image read back from a closed file as %v", got)
	}
}

// An image read from the file is kept, so that the next read of it needs
// no file.
func TestImagesKeepWhatTheyRead(t *testing.T) {
	im := newImages()
	if im.f == nil {
		t.Fatal("no temporary file for the images: the test needs one to read from")
	}
	r := im.put(ddbitem.Item{"PK": &types.AttributeValueMemberS{Value: "USER#1"}})
	im.recent = recent{} // as if pushed out by later images
	if im.get(r) == nil {
		t.Fatal("the image did not read back from the file")
	}
	im.f.Close()
	if got := im.get(r); got == nil {
		t.Error("the image read from the file was not kept: a second read went to the closed file")
	}
}
