// The counter page (docs/idcard.md): reads a digital ID card's QR from the camera (jsQR) or from a
// scanner typing into the field, sends it with the counter link's token and shows the answer.
const main = document.querySelector('main');
const words = main.dataset;
const fragment = new URLSearchParams(location.hash.slice(1));
const token = fragment.get('t') ?? '';
// `#…&age=18`: an age-only counter, answered "18+" or not, never the holder's name (docs/idcard.md).
const ageOver = ['15', '16', '18', '21'].includes(fragment.get('age')) ? Number(fragment.get('age')) : undefined;
// The token is read once and dropped from the address bar, so it is not left on screen or in history.
history.replaceState(null, '', location.pathname + location.search);
const answer = document.getElementById('answer');
const field = document.getElementById('code');
const video = document.getElementById('camera');
let busy = false;
let lastCode = '';

function show(result, verdict, holder = '', age = '') {
  answer.hidden = false;
  answer.dataset.result = result;
  main.dataset.state = result;
  document.getElementById('verdict').textContent = verdict;
  document.getElementById('holder').textContent = holder;
  document.getElementById('age').textContent = age;
}

async function check(code) {
  if (busy || !code.startsWith('BANKIDF.') || code === lastCode) return;
  busy = true;
  lastCode = code;
  main.dataset.state = 'checking';
  try {
    const response = await fetch('/kiosk/counter/verify', {
      method: 'POST',
      headers: { authorization: `Counter ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(ageOver ? { qrCode: code, ageOver } : { qrCode: code }),
    });
    const body = await response.json().catch(() => ({}));
    if (response.ok) {
      const age = body.ageVerification
        ? body.ageVerification.result
          ? words.over.replace('{age}', body.ageVerification.ageOver)
          : ''
        : words.years.replace('{age}', body.age);
      const green = body.verified && (!body.ageVerification || body.ageVerification.result === true);
      show(green ? 'green' : 'red', green ? words.verified : words.notVerified, body.name ?? '', age);
    } else if (response.status === 409) show('red', words.expired);
    else if (response.status === 401) show('red', words.invalidLink);
    else if (response.status === 429) show('red', words.busy);
    else show('red', words.notVerified);
  } catch {
    show('red', words.notVerified);
  } finally {
    busy = false;
  }
}

// A scanner types the code and Enter; a person may paste it.
document.getElementById('scan').addEventListener('submit', (event) => {
  event.preventDefault();
  const code = field.value.trim();
  field.value = '';
  lastCode = '';
  void check(code);
});

async function startCamera() {
  if (!navigator.mediaDevices?.getUserMedia) return;
  let stream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' } });
  } catch {
    video.hidden = true;
    return;
  }
  video.srcObject = stream;
  await video.play();
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d', { willReadFrequently: true });
  const tick = () => {
    if (video.videoWidth > 0) {
      canvas.width = video.videoWidth;
      canvas.height = video.videoHeight;
      context.drawImage(video, 0, 0);
      const found = window.jsQR(context.getImageData(0, 0, canvas.width, canvas.height).data, canvas.width, canvas.height, {
        inversionAttempts: 'dontInvert',
      });
      if (found?.data) void check(found.data);
    }
    setTimeout(tick, 250);
  };
  tick();
}

void startCamera();
