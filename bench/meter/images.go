package meter

import (
	"os"
	"sync"
	"sync/atomic"

	"github.com/ddbharness/ddbharness/ddbitem"
)

// images holds the shadow's item images off the heap, so that a run that
// creates items at every call does not grow by their images: each image is
// encoded and written once, at the end of an unlinked temporary file the
// process alone sees (the system frees it when the process ends), and read
// back when a capacity rule needs it. Images are never rewritten: a newer
// image of an item is written anew and the item's ref moves to it, so the
// file grows by the bytes of the images written (about each write's item
// size), not held in memory. Where no file can be made or written, images
// stay in memory, encoded.
//
// The images lately written or read are kept in memory too, encoded
// (recent): a call reads its item's image more than once (to size the call
// before it is sent, and to compare what it found after), and reading the
// file is a system call that costs more than decoding.
type images struct {
	f   *os.File
	end atomic.Int64 // the file's length: the next image's offset

	mu  sync.Mutex
	mem [][]byte // images kept in memory, by ref.off, when the file failed

	recent recent
}

// recentBytes bounds the encoded images kept in memory beside the file
// (and recentImages their number, whatever their size).
const (
	recentBytes  = 256 << 10
	recentImages = 4096
)

// recent is a bounded set of the file's images, by offset; the first kept
// is the first to leave.
type recent struct {
	mu    sync.Mutex
	by    map[int64][]byte
	queue []int64
	bytes int
}

func (c *recent) get(off int64) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.by[off]
	return b, ok
}

// keep keeps b, the image at off, which no one changes after.
func (c *recent) keep(off int64, b []byte) {
	if len(b) > recentBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.by == nil {
		c.by = map[int64][]byte{}
	}
	if _, ok := c.by[off]; ok {
		return
	}
	for len(c.queue) > 0 && (c.bytes+len(b) > recentBytes || len(c.queue) >= recentImages) {
		c.bytes -= len(c.by[c.queue[0]])
		delete(c.by, c.queue[0])
		c.queue = c.queue[1:]
	}
	c.by[off] = b
	c.queue = append(c.queue, off)
	c.bytes += len(b)
}

// ref locates one stored image; the zero ref is no image (no item).
type ref struct {
	off int64
	n   int32 // encoded length + 1, so that an empty item is not the zero ref
	mem bool  // off indexes images.mem
}

func newImages() *images {
	im := &images{}
	if f, err := os.CreateTemp("", "ddbharness-shadow-*"); err == nil {
		if os.Remove(f.Name()) == nil {
			im.f = f
		} else {
			f.Close()
		}
	}
	return im
}

// put stores img (nil: no item) and returns where.
func (im *images) put(img ddbitem.Item) ref {
	if img == nil {
		return ref{}
	}
	b := encodeItem(nil, img)
	if im.f != nil && len(b) < 1<<30 {
		off := im.end.Add(int64(len(b))) - int64(len(b))
		if _, err := im.f.WriteAt(b, off); err == nil {
			im.recent.keep(off, b)
			return ref{off: off, n: int32(len(b)) + 1}
		}
	}
	im.mu.Lock()
	defer im.mu.Unlock()
	im.mem = append(im.mem, b)
	return ref{off: int64(len(im.mem) - 1), n: 1, mem: true}
}

// get reads the image at r back (nil: no item, or an image it cannot read,
// which only a failing disk makes).
func (im *images) get(r ref) ddbitem.Item {
	if r == (ref{}) {
		return nil
	}
	var b []byte
	if r.mem {
		im.mu.Lock()
		b = im.mem[r.off]
		im.mu.Unlock()
	} else if kept, ok := im.recent.get(r.off); ok {
		b = kept
	} else {
		b = make([]byte, r.n-1)
		if _, err := im.f.ReadAt(b, r.off); err != nil {
			return nil
		}
		im.recent.keep(r.off, b)
	}
	img, err := decodeItem(b)
	if err != nil {
		return nil
	}
	return img
}
