// libcurl, the system's (libcurl4-openssl-dev on Debian and Ubuntu, libcurl-devel on Fedora).
#include <curl/curl.h>
