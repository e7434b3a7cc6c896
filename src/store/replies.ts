// Requests to the worker that get one reply each, matched by the id the reply carries back.

export interface ReplyChannel<R> {
  /** Posts the request `post(id)` builds; resolves with the reply that carries the same id. */
  request(post: (id: number) => void): Promise<R>;
  /** Hands a reply to the request it answers (a reply nobody waits for is dropped). */
  settle(id: number, reply: R): void;
}

/** One kind of request and its replies, with ids of its own. */
export function replyChannel<R>(): ReplyChannel<R> {
  let nextId = 1;
  const pending = new Map<number, (reply: R) => void>();
  return {
    request(post) {
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, resolve);
        post(id);
      });
    },
    settle(id, reply) {
      pending.get(id)?.(reply);
      pending.delete(id);
    },
  };
}
