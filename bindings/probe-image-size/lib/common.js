'use strict';
// probe-image-size's ProbeError: `code` ECONTENT when the bytes are no image it can read,
// `statusCode` the HTTP status of a response it can't use.

class ProbeError extends Error {
  constructor(message, code, statusCode, options) {
    super(message, options);
    this.name = 'ProbeError';
    if (code) this.code = code;
    if (statusCode) this.statusCode = statusCode;
  }
}

exports.ProbeError = ProbeError;
