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
type images struct {
	f   *os.File
	end atomic.Int64 // the file's length: the next image's offset

	mu  sync.Mutex
	mem [][]byte // images kept in memory, by ref.off, when the file failed
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
	} else {
		b = make([]byte, r.n-1)
		if _, err := im.f.ReadAt(b, r.off); err != nil {
			return nil
		}
	}
	img, err := decodeItem(b)
	if err != nil {
		return nil
	}
	return img
}
