import probe = require('./index');
declare const sync: typeof probe.sync;
export = sync;
