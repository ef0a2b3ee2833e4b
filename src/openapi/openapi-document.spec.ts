import { toOpenApi31 } from './openapi-document.js';

describe(toOpenApi31.name, () => {
  it('should turn nullable types into a null type member, deep in the document', () => {
    const converted = toOpenApi31({
      components: {
        schemas: {
          A: {
            properties: {
              name: { type: 'string', nullable: true },
              reason: { type: 'string', enum: ['manual', 'gone'], nullable: true },
              count: { type: 'integer' },
              list: { type: 'array', items: [{ type: 'string', nullable: true }] },
            },
          },
        },
      },
    });
    expect(converted.components.schemas.A.properties).toEqual({
      name: { type: ['string', 'null'] },
      reason: { type: ['string', 'null'], enum: ['manual', 'gone', null] },
      count: { type: 'integer' },
      list: { type: 'array', items: [{ type: ['string', 'null'] }] },
    });
  });
});
