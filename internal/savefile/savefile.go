// Package savefile reads and writes the files arbiter saves games and
// reports into: record files read whole, destinations checked before
// anything is played, and files replaced whole through a temporary file,
// so that a crash never leaves half of one. Its errors name the file as
// the user gave it, never a temporary file.
package savefile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"

	"github.com/arbiter-games/arbiter/record"
)

// ReadRecords reads every game of a record file. The errors name path.
func ReadRecords(path string) ([]*record.Record, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fileError(path, "cannot read", err)
	}
	recs, err := record.Read(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return recs, nil
}

// CheckDestination reports, before anything is played, whether games can
// be saved into path: its directory must exist and take new files, and an
// existing file must be a writable regular file that reads as records (the
// games will be added to it). Every message names path as the user gave it.
func CheckDestination(path string) error {
	_, err := DestinationText(path)
	return err
}

// DestinationText checks path as CheckDestination does and returns what
// the file holds now (nothing for a new file), so that the caller can keep
// it in front of the games it adds.
func DestinationText(path string) ([]byte, error) {
	if path == "" {
		return nil, errors.New("no file named to save into")
	}
	target, info, err := resolve(path)
	if err != nil {
		return nil, err
	}
	if info == nil {
		// A new file: its directory must take it. Probing with a file
		// of our own finds a missing or read-only directory now rather
		// than after the first game.
		return nil, probeDirectory(path, filepath.Dir(target))
	}
	if err := writable(path, info); err != nil {
		return nil, err
	}
	old, err := os.ReadFile(target)
	if err != nil {
		return nil, fileError(path, "cannot read", err)
	}
	if _, err := record.Read(bytes.NewReader(old)); err != nil {
		return nil, fmt.Errorf("%s is not a record file (%v); not saving into it: choose another file", path, err)
	}
	return old, nil
}

// resolve follows path through its symbolic links to the file that is
// really written, and returns that file's information, or nil if it does
// not exist yet.
func resolve(path string) (string, fs.FileInfo, error) {
	target := path
	if li, err := os.Lstat(path); err == nil && li.Mode()&fs.ModeSymlink != 0 {
		if target, err = filepath.EvalSymlinks(path); err != nil {
			return "", nil, fmt.Errorf("%s is a link to a file that cannot be reached (%v)", path, unwrapPath(err))
		}
	}
	info, err := os.Stat(target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return target, nil, nil
	case err != nil:
		// Most often a part of the path that is not a directory: say
		// which, if so.
		if derr := checkDirectory(path, filepath.Dir(target)); derr != nil {
			return "", nil, derr
		}
		return "", nil, fileError(path, "cannot use", err)
	}
	return target, info, nil
}

// writable refuses a directory, a device or other special file, and a file
// its owner made read-only.
func writable(path string, info fs.FileInfo) error {
	switch {
	case info.IsDir():
		return fmt.Errorf("%s is a directory; name a record file (such as %s)", path, filepath.Join(path, "games.pdn"))
	case !info.Mode().IsRegular():
		return fmt.Errorf("%s is not a regular file (%s); name a record file", path, info.Mode().Type())
	case info.Mode().Perm()&0o200 == 0:
		return fmt.Errorf("%s is read-only; not replacing it (make it writable, or choose another file)", path)
	}
	return nil
}

// checkDirectory checks that dir, where path is to be saved, is a
// directory.
func checkDirectory(path, dir string) error {
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("cannot save to %s: the directory %s does not exist", path, dir)
	case err != nil:
		return fileError(path, "cannot save to", err)
	case !info.IsDir():
		return fmt.Errorf("cannot save to %s: %s is not a directory", path, dir)
	}
	return nil
}

// probeDirectory checks that dir exists and that a file can be made in it.
func probeDirectory(path, dir string) error {
	if err := checkDirectory(path, dir); err != nil {
		return err
	}
	f, err := createTemp(dir, filepath.Base(path))
	if err != nil {
		return fileError(path, "cannot save to", err)
	}
	f.Close()
	if err := os.Remove(f.Name()); err != nil {
		return fileError(path, "cannot save to", err)
	}
	return nil
}

// WriteAtomic writes a file through a temporary file and a rename, so
// that a crash never leaves half a file. A symbolic link is kept: the file
// it points to is the one replaced. An existing file keeps its permissions;
// a new one gets what os.Create gives (0666 less the umask). A read-only
// file, a directory or a special file is refused. Errors name path, never
// the temporary file.
func WriteAtomic(path string, write func(io.Writer) error) error {
	target, info, err := resolve(path)
	if err != nil {
		return err
	}
	if info != nil {
		err = writable(path, info)
	} else {
		err = checkDirectory(path, filepath.Dir(target))
	}
	if err != nil {
		return err
	}
	tmp, err := createTemp(filepath.Dir(target), filepath.Base(target))
	if err != nil {
		return fileError(path, "cannot save to", err)
	}
	defer os.Remove(tmp.Name()) // after the rename there is nothing to remove
	if err := fill(tmp, info, write); err != nil {
		return fileError(path, "cannot save to", err)
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		return fileError(path, "cannot save to", err)
	}
	return nil
}

// fill writes the temporary file, gives it the permissions of the file it
// replaces, and makes sure it is on the disk before the rename.
func fill(tmp *os.File, old fs.FileInfo, write func(io.Writer) error) error {
	err := write(tmp)
	if err == nil && old != nil {
		err = tmp.Chmod(old.Mode().Perm())
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	return err
}

// createTemp makes a new hidden file next to the one it will replace. It
// asks for mode 0666, as os.Create does, so that the umask decides a new
// file's permissions (os.CreateTemp would give 0600).
func createTemp(dir, base string) (*os.File, error) {
	for range 100 {
		name := filepath.Join(dir, "."+base+"."+strconv.FormatUint(rand.Uint64(), 36)+".tmp")
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, fmt.Errorf("no free temporary name in %s", dir)
}

// fileError says what could not be done with path and why, without the
// name of any temporary file the error came from.
func fileError(path, what string, err error) error {
	return fmt.Errorf("%s %s: %v", what, path, unwrapPath(err))
}

// unwrapPath strips the operation and file name from an os error, leaving
// the reason ("permission denied", "no such file or directory").
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
