// The live lecture page (lecture.html): picks the host, phone or projector view.
//
// The live lecture page (API in docs/lecture.md), three views of one session:
//   ?role=host[&session=CODE][&activity=meeting-day|pricing|histogram]
//                   the instructor's controls (web/lecture/host.js)
//   ?role=projector&session=CODE
//                   what the room sees, opened from the controls in a second
//                   window (web/lecture/projector.js)
//   ?join=CODE      a student's phone (web/lecture/phone.js)
// web/lecture/client.js is what they share. An API named by ?api= is used
// only after the person has seen its host and agreed, and never remembered.
import { chooseAPI, params, say } from './client.js';
import { host } from './host.js';
import { phone } from './phone.js';
import { projector } from './projector.js';

const views = { host, projector };
chooseAPI().then(() => (views[params.get('role')] || phone)())
  .catch((err) => say(`Something went wrong: ${err.message}`));
