/** The test vectors of src/crypto/README.md, in one place for every crypto test. */
export const STAMP_VECTOR = {
  privateKey: '487f361ddfd73440e707f4daa6775b376859e8a3c9f29b3bb694a12927c0213c',
  publicKey: '02f739f8c77b32f4d5f13265861febd76e7a9c61a1140d296b8c16302508870316',
  payload: 'hello from TKHQ!',
  signature:
    '3045022100b9d0146ae33c9b5b8905a910d916845525aea5c0d96f15be05731951b455935302204fc0d9a6e5b590c6a0ee14feaa945cd63c3e58e8ac412bdc2cd38d1f6379c966',
};

export const LEGACY_PLAINTEXT = '67ee05fc3bdf4161bc70701c221d8d77180294cefcfcea64ba83c4d4c732fcb9';

export const LEGACY_BUNDLES = [
  {
    bundle:
      'w99a5xV6A75TfoAUkZn869fVyDYvgVsKrawMALZXmrauZd8hEv66EkPU1Z42CUaHESQjcA5bqd8dynTGBMLWB9ewtXWPEVbZvocB4Tw2K1vQVp7uwjf',
    privateKey: '20fa65df11f24833790ae283fc9a0c215eecbbc589549767977994dc69d05a56',
  },
  {
    bundle:
      'skr1QFHrNyL7xcvzRpU4t9yhL8rEVPZgDcFM5YW8S1YwLYjedoagnNZwMCyJsxNYzuphKHqQBkZxt4fLWSVsMqnW9XdmLBsK2MhwC5WxuxZD9xE8ezQ',
    privateKey: 'd2d9239a4bb25d09a6d91822e1d0991f0b21a63b102191bb98b6b77ac6fc6c91',
  },
];

export const PROVIDER_SIGNER =
  '046b4f88421f76b6ba418afc2ea1d8ced671337d7db6b80478a60d8531bf8f17fa9a512f0fef96fc0c9b4cd9dff70b34992e520ce04c79d931f6ff6296b547d201';
