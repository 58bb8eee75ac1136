// Declarations copied in substance from Apple's macOS SDK headers (usr/include), for the
// darwin-check stub of the Darwin module. Only what the package's Darwin code uses, and only
// what Glibc's module doesn't declare under the same name (those are in Darwin.swiftinterface).
#ifndef DARWIN_CHECK_DARWINC_H
#define DARWIN_CHECK_DARWINC_H

#include <stdint.h>
#include <sys/types.h>

// <sys/mount.h> (64-bit inode layout, the only one on arm64 and the default since macOS 10.6):
//
//   #define MFSTYPENAMELEN  16
//   #define MAXPATHLEN      1024
//   struct statfs { ... };
//   int statfs(const char *, struct statfs *) __DARWIN_INODE64(statfs);
//
// https://developer.apple.com/library/archive/documentation/System/Conceptual/ManPages_iPhoneOS/man2/statfs.2.html
// Glibc's module has no `statfs` at all (its <sys/statfs.h> isn't part of SwiftGlibc).
// `f_fsid` is Apple's `fsid_t`, `struct fsid { int32_t val[2]; }`; spelled `struct fsid` here
// so that Glibc's own `fsid_t` typedef doesn't become ambiguous.
struct fsid { int32_t val[2]; };

struct statfs {
    uint32_t    f_bsize;        /* fundamental file system block size */
    int32_t     f_iosize;       /* optimal transfer block size */
    uint64_t    f_blocks;       /* total data blocks in file system */
    uint64_t    f_bfree;        /* free blocks in fs */
    uint64_t    f_bavail;       /* free blocks avail to non-superuser */
    uint64_t    f_files;        /* total file nodes in file system */
    uint64_t    f_ffree;        /* free file nodes in fs */
    struct fsid f_fsid;         /* file system id */
    uid_t       f_owner;        /* user that mounted the filesystem */
    uint32_t    f_type;         /* type of filesystem */
    uint32_t    f_flags;        /* copy of mount exported flags */
    uint32_t    f_fssubtype;    /* fs sub-type (flavor) */
    char        f_fstypename[16];       /* fs type name (MFSTYPENAMELEN) */
    char        f_mntonname[1024];      /* directory on which mounted (MAXPATHLEN) */
    char        f_mntfromname[1024];    /* mounted filesystem (MAXPATHLEN) */
    uint32_t    f_flags_ext;    /* extended flags */
    uint32_t    f_reserved[7];  /* For future use */
};

int statfs(const char *, struct statfs *);

#endif
