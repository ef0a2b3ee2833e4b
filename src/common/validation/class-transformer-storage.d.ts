// class-transformer keeps its decorators' metadata in a singleton its index does not export; the
// compiled validation reads it to leave every transformed property to the pipe.
declare module 'class-transformer/cjs/storage.js' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage.js';
}
