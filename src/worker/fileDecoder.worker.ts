// Entry of the file decoder worker (created by src/app, see fileDecoder.ts): one reply a request.
import { decodeSessionFile, type DecodeFileReply, type DecodeFileRequest } from './fileDecoder';

self.onmessage = async (event: MessageEvent<DecodeFileRequest>) => {
  const { id, file } = event.data;
  const reply: DecodeFileReply = { id, result: await decodeSessionFile(file) };
  self.postMessage(reply);
};
